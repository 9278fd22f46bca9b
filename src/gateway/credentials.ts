import type { Credentials } from '../domain/gateway.js';

/** The user name TigerGraph's clients send with a GSQL secret as the password (pyTigerGraph's gsqlSecret). */
export const SECRET_USERNAME = '__GSQL__secret';

/**
 * `Authorization: Basic base64(user:password)` → a password (or, for the user
 * `__GSQL__secret`, a secret); `Authorization: GSQL-Secret <secret>` → a secret, the scheme the
 * managed service documents for REST requests; `Authorization: Bearer <token>` → a token;
 * anything else → undefined.
 */
export function credentialsFrom(header: string | undefined): Credentials | undefined {
  const gsqlSecret = /^GSQL-Secret\s+([\x21-\x7e]+)\s*$/i.exec(header ?? '');
  if (gsqlSecret) return { kind: 'secret', secret: gsqlSecret[1]! };
  const bearer = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header ?? '');
  if (bearer) return { kind: 'token', token: bearer[1]! };
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!basic) return undefined;
  const text = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 1) return undefined;
  const username = text.slice(0, colon);
  const password = text.slice(colon + 1);
  if (username === SECRET_USERNAME) return password ? { kind: 'secret', secret: password } : undefined;
  return { kind: 'password', username, password };
}
