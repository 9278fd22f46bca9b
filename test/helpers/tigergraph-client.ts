import assert from 'node:assert/strict';
import { gatewayRequest, type GatewayRequestOptions, type GatewayTextResponse } from './gateway.js';

/**
 * The requests pyTigerGraph (tigergraph/pyTigerGraph, common/auth.py, pyTigerGraphAuth.py,
 * pyTigerGraphBase.py, pyTigerGraphGSQL.py, pyTigerGraphUtils.py) sends for its handshake,
 * replayed byte for byte where it matters: bodies as JSON text without a Content-Type, the
 * 3.x GSQL endpoint form-encoded, `/restpp/echo/` with its slash. Answers are read the way
 * its parsers read them.
 */

/** Where a workspace is reached: Host (`<proxy_host>:443`, the Savanna layout) or the `/w/<id>` prefix. */
export interface Target {
  base: string;
  host?: string;
  prefix: string;
}

/** Credentials, and any further headers (X-Forwarded-For behind a trusted proxy). */
export type Auth = Pick<GatewayRequestOptions, 'auth' | 'bearer' | 'headers'>;

export const hostTarget = (base: string, proxyHost: string): Target => ({
  base,
  host: `${proxyHost}:443`,
  prefix: '',
});
export const prefixTarget = (base: string, workspaceId: string): Target => ({ base, prefix: `/w/${workspaceId}` });

/** The user name pyTigerGraph sends a gsqlSecret under. */
export const secretAuth = (secret: string): Auth => ({ auth: { username: '__GSQL__secret', password: secret } });

/** Python's quote_plus, as pyTigerGraph encodes GSQL for the 3.x endpoint. */
const quotePlus = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');

export class TigerGraphReplay {
  constructor(private readonly target: Target) {}

  request(method: string, path: string, auth: Auth, body?: string): Promise<GatewayTextResponse> {
    const { base, host, prefix } = this.target;
    return gatewayRequest(base, method, prefix + path, {
      ...auth,
      ...(host ? { host } : {}),
      ...(body !== undefined ? { body } : {}),
    });
  }

  /** getVer(): GET /restpp/version, the "product" line's `release_<x.y.z>_…` cut to x.y.z. */
  async getVer(auth: Auth): Promise<string> {
    const res = await this.request('GET', '/restpp/version', auth);
    assert.equal(res.status, 200, res.text);
    const lines = String(res.json.message).split('\n');
    const components = lines
      .filter((_, i) => i > 2 && i < lines.length - 1)
      .map((l) => l.split(/\s+/))
      .map((m) => ({ name: m[0], version: m[1], datetime: `${m[3]} ${m[4]} ${m[5]}` }));
    const product = components.find((c) => c.name === 'product');
    assert.ok(product?.version && !product.datetime.includes('undefined'), `a product line in ${res.json.message}`);
    return /_.+_/.exec(product.version)![0].replace(/^_|_$/g, '');
  }

  /** echo(usePost): `/restpp/echo/` with the trailing slash, no body. */
  echo(auth: Auth, usePost = false): Promise<GatewayTextResponse> {
    return this.request(usePost ? 'POST' : 'GET', '/restpp/echo/', auth);
  }

  /** createSecret() on 4.x: POST /gsql/v1/secrets?alias=… (params, no body). */
  createSecretV4(auth: Auth, alias?: string): Promise<GatewayTextResponse> {
    return this.request('POST', `/gsql/v1/secrets${alias ? `?alias=${encodeURIComponent(alias)}` : ''}`, auth);
  }

  /** gsql() on 3.x: POST /gsqlserver/gsql/file with quote_plus(text); the answer's text. */
  gsql3(auth: Auth, text: string): Promise<GatewayTextResponse> {
    return this.request('POST', '/gsqlserver/gsql/file', auth, quotePlus(text));
  }

  /** gsql() on 4.x: POST /gsql/v1/statements with the text. */
  gsql4(auth: Auth, text: string): Promise<GatewayTextResponse> {
    return this.request('POST', '/gsql/v1/statements', auth, text);
  }

  /** _token() on 3.x: /restpp/requesttoken with alt_data as JSON text. */
  requestToken(
    auth: Auth,
    data: { secret?: string; lifetime?: string; graph?: string; token?: string },
    method = 'POST',
  ): Promise<GatewayTextResponse> {
    return this.request(method, '/restpp/requesttoken', auth, JSON.stringify(data));
  }

  /** _token() on 4.x: POST /gsql/v1/tokens with data as JSON. */
  tokensV4(
    auth: Auth,
    data: { secret?: string; lifetime?: string; graph?: string; tokens?: string | string[] },
    method = 'POST',
  ): Promise<GatewayTextResponse> {
    return this.request(method, '/gsql/v1/tokens', auth, JSON.stringify(data));
  }
}

/** _parse_create_secret(): the text after "The secret: " up to the next space. */
export function parseCreatedSecret(output: string): string {
  const after = output.replace(/\n/g, '').split('The secret: ')[1];
  assert.ok(after, `a created secret in ${JSON.stringify(output)}`);
  return after.split(' ')[0]!.trim();
}

/** _parse_get_secrets(): "- Secret: x" followed by "- Alias: a" → {alias: x}. */
export function parseShownSecrets(output: string): Record<string, string> {
  const lines = output.split('\n');
  const found: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.includes('- Secret') && lines[i + 1]?.includes('- Alias'))
      found[lines[i + 1]!.split(': ')[1]!] = lines[i]!.split(': ')[1]!;
  }
  return found;
}

/** _parse_token_response(): not error, results.token, expiration as epoch seconds. */
export function parseToken(res: GatewayTextResponse): { token: string; expiration: number } {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.error, false, res.text);
  const token = ((res.json.results ?? res.json) as { token?: unknown }).token;
  assert.equal(typeof token, 'string', res.text);
  const expiration = Number(res.json.expiration);
  assert.ok(Number.isFinite(expiration), `expiration ${String(res.json.expiration)} parses as a number`);
  return { token: token as string, expiration };
}

/** A refusal in TigerGraph's shape, as pyTigerGraph's _error_check reads it. */
export function assertRefusal(res: GatewayTextResponse, status: number, code: string, message?: RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.json.error, true, res.text);
  assert.equal(res.json.code, code, res.text);
  assert.equal(typeof res.json.message, 'string');
  if (message) assert.match(String(res.json.message), message);
}

/** The small social graph the local-driver tests define: Person vertices, undirected Knows edges. */
export const socialSchema = [
  'CREATE VERTEX Person (PRIMARY_ID id STRING, age INT) WITH PRIMARY_ID_AS_ATTRIBUTE="true"',
  'CREATE UNDIRECTED EDGE Knows (FROM Person, TO Person, since INT)',
  'CREATE GRAPH social (Person, Knows)',
].join('\n');

/**
 * Defines the social graph and loads 3 people (ann 31, bob 42, cat 27) with 2 Knows edges (ann to
 * bob and cat) through the gateway, as a client would.
 */
export async function loadSocialGraph(target: Target, auth: Auth): Promise<void> {
  const tg = new TigerGraphReplay(target);
  const defined = await tg.gsql4(auth, socialSchema);
  assert.equal(defined.status, 200, defined.text);
  const person = (age: number) => ({ age: { value: age } });
  const upserted = await tg.request(
    'POST',
    '/restpp/graph/social',
    auth,
    JSON.stringify({
      vertices: { Person: { ann: person(31), bob: person(42), cat: person(27) } },
      edges: { Person: { ann: { Knows: { Person: { bob: {}, cat: {} } } } } },
    }),
  );
  assert.equal(upserted.status, 200, upserted.text);
}
