import type { EndpointCall } from '../../../src/client/surface.js';
import type { EndpointSpec } from '../../../src/schemas/endpoints/index.js';
import { reportReachable } from './connectivity.js';
import type { ErrorDetail, ErrorEnvelope, SuccessEnvelope } from './types.js';

export const API_PREFIX = '/controller/v4/v2';

/** A request that got no answer at all (status 0): the server is down or the network is. */
export const UNREACHABLE = 'Acacia could not be reached. Check the connection and try again.';

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

/**
 * Sends one request of the endpoint table (see endpoints.ts): the envelope's Result, or an
 * ApiError carrying the envelope's details. A call that sends its own x-api-key header (signing
 * in checks a key before keeping it) is not the session's, so its 401 does not sign out.
 */
export async function send(_endpointId: string, endpoint: EndpointSpec, call: EndpointCall): Promise<unknown> {
  const url = new URL(call.path, window.location.origin);
  const query = { ...call.query, ...call.options.query };
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (apiKey) headers['x-api-key'] = apiKey;
  Object.assign(headers, call.options.headers);
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method: endpoint.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      cache: 'no-store',
    });
  } catch {
    reportReachable(false);
    throw new ApiError(0, [], UNREACHABLE);
  }
  reportReachable(true);
  const envelope = (await res.json().catch(() => undefined)) as SuccessEnvelope<unknown> | ErrorEnvelope | undefined;
  if (res.ok && envelope && !envelope.Error && 'Result' in envelope) return envelope.Result;
  const details = envelope?.ErrorDetails ?? [];
  const error = new ApiError(res.status, details, envelope?.Message ?? `HTTP ${res.status}`);
  const ownKey = call.options.headers?.['x-api-key'] !== undefined;
  if (res.status === 401 && !ownKey) onUnauthorized?.(details[0]?.Reason ?? 'the API key was refused');
  throw error;
}
