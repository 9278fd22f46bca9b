import { request } from 'undici';

export interface GatewayResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface GatewayOptions {
  host?: string;
  auth?: { username: string; password: string };
  headers?: Record<string, string>;
}

export interface GatewayRequestOptions extends GatewayOptions {
  /** `Authorization: Bearer <token>` (instead of auth). */
  bearer?: string;
  /** Sent as it is: pyTigerGraph sends JSON text without a Content-Type. */
  body?: string;
}

/** A gateway answer with its body as text, and as JSON when it is JSON. */
export interface GatewayTextResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, unknown>;
}

function authHeaders(opts: GatewayRequestOptions): Record<string, string> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.host) headers.host = opts.host;
  if (opts.auth)
    headers.authorization = `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString('base64')}`;
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  return headers;
}

/** One GET to the data-plane gateway at `base` (e.g. http://[::1]:port). */
export async function gatewayGet(base: string, path: string, opts: GatewayOptions = {}): Promise<GatewayResponse> {
  const res = await request(new URL(path, base), { method: 'GET', headers: authHeaders(opts) });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
}

/** Any request to the gateway; the answer's body as text and, when it parses, as JSON. */
export async function gatewayRequest(
  base: string,
  method: string,
  path: string,
  opts: GatewayRequestOptions = {},
): Promise<GatewayTextResponse> {
  const res = await request(new URL(path, base), {
    method: method as 'GET',
    headers: authHeaders(opts),
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
  const text = await res.body.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a GSQL answer is text
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** The gateway of a server listening on every address, reached over IPv4 and IPv6 loopback. */
export function loopbackBases(gatewayUrl: string): { v4: string; v6: string } {
  const port = new URL(gatewayUrl).port;
  return { v4: `http://127.0.0.1:${port}`, v6: `http://[::1]:${port}` };
}
