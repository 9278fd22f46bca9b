import type { ErrorDetail, ErrorEnvelope, SuccessEnvelope } from './types.js';

export const API_PREFIX = '/controller/v4/v2';

/** A refused request: the HTTP status and the envelope's ErrorDetails. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly details: ErrorDetail[],
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The key every request carries; set at sign-in, cleared at sign-out. */
let apiKey: string | undefined;
let onUnauthorized: ((reason: string) => void) | undefined;

export function setSessionKey(key: string | undefined, unauthorized?: (reason: string) => void): void {
  apiKey = key;
  onUnauthorized = unauthorized;
}

export function currentKey(): string | undefined {
  return apiKey;
}

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Another key than the session's (signing in checks a key before keeping it). */
  key?: string;
}

/** One API call: the envelope's Result, or an ApiError carrying the envelope's details. */
export async function call<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
  const url = new URL(API_PREFIX + path, window.location.origin);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = opts.key !== undefined ? opts.key : apiKey;
  if (key) headers['x-api-key'] = key;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, [], 'Acacia could not be reached. Check the connection and try again.');
  }
  const envelope = (await res.json().catch(() => undefined)) as SuccessEnvelope<T> | ErrorEnvelope | undefined;
  if (res.ok && envelope && !envelope.Error && 'Result' in envelope) return envelope.Result;
  const details = envelope?.ErrorDetails ?? [];
  const error = new ApiError(res.status, details, envelope?.Message ?? `HTTP ${res.status}`);
  if (res.status === 401 && opts.key === undefined) onUnauthorized?.(details[0]?.Reason ?? 'the API key was refused');
  throw error;
}

export const enc = encodeURIComponent;
