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

/** One GET to the data-plane gateway at `base` (e.g. http://[::1]:port). */
export async function gatewayGet(base: string, path: string, opts: GatewayOptions = {}): Promise<GatewayResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.host) headers.host = opts.host;
  if (opts.auth) headers.authorization = `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString('base64')}`;
  const res = await request(new URL(path, base), { method: 'GET', headers });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
}

/** The gateway of a server listening on every address, reached over IPv4 and IPv6 loopback. */
export function loopbackBases(gatewayUrl: string): { v4: string; v6: string } {
  const port = new URL(gatewayUrl).port;
  return { v4: `http://127.0.0.1:${port}`, v6: `http://[::1]:${port}` };
}
