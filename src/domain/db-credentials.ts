import { hash, randomBytes } from 'node:crypto';
import { AppError, invalid } from './errors.js';

/**
 * The credentials a database user proves itself with on the data plane besides the password:
 * GSQL secrets (long-lived, made by the user) and tokens (expiring, requested with a secret
 * or the password). Both are random strings shown once; only their digests are stored.
 */

/** Who a data-plane request acts as, and how it proved it. */
export interface DbIdentity {
  orgId: string;
  workspaceId: string;
  userId: string;
  username: string;
  /** Digest of the user's password hash when the credential was checked (see passwordStamp). */
  passwordStamp: string;
  via: 'password' | 'secret' | 'token';
  /** The secret proved with (via secret), so tokens requested with it go when it is dropped. */
  secretId?: string;
}

/** TigerGraph's secrets and tokens are 32 characters of lower-case letters and digits (165 bits here). */
export const CREDENTIAL_LENGTH = 32;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A uniformly random string over [a-z0-9]. */
export function randomText(length: number): string {
  let out = '';
  while (out.length < length) {
    // Bytes of 252 and above are dropped so every character is equally likely (252 = 7 × 36).
    for (const byte of randomBytes(length * 2)) {
      if (byte < 252 && out.length < length) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out;
}

/** A new secret or token. */
export const newCredential = (): string => randomText(CREDENTIAL_LENGTH);

/** SHA-256 hex digest: secrets and tokens are random enough that a plain digest cannot be reversed. */
export const digest = (text: string): string => hash('sha256', text, 'hex');

/** What a listing shows of a secret: its first and last three characters, as GSQL's SHOW SECRET does. */
export const maskSecret = (secret: string): string => `${secret.slice(0, 3)}****${secret.slice(-3)}`;

/** Changes exactly when the password does (a new password has a new salted hash), so a token can be tied to it. */
export const passwordStamp = (passwordHash: string): string => digest(passwordHash);

/** GSQL names: aliases and graph names. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function checkAlias(alias: string): string {
  if (!NAME.test(alias))
    throw invalid('alias', 'must be 1-64 characters: a letter or underscore, then letters, digits or underscores');
  return alias;
}

export function checkGraphName(graph: string): string {
  if (!NAME.test(graph))
    throw invalid('graph', 'must be a graph name: a letter or underscore, then letters, digits or underscores');
  return graph;
}

/** A generated alias, in the form pyTigerGraph documents: AUTO_GENERATED_ALIAS_ and 7 characters. */
export const GENERATED_ALIAS_PREFIX = 'AUTO_GENERATED_ALIAS_';
export const generatedAlias = (): string => `${GENERATED_ALIAS_PREFIX}${randomText(7)}`;

/** Token lifetimes: TigerGraph's default of 30 days; at most 10 years, as API keys. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
export const MAX_TOKEN_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

/** `lifetime` as clients send it (pyTigerGraph sends a string of digits); undefined → the default. */
export function parseLifetime(value: unknown): number {
  if (value === undefined || value === null || value === '') return DEFAULT_TOKEN_LIFETIME_SECONDS;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const seconds = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(seconds >= 1 && seconds <= MAX_TOKEN_LIFETIME_SECONDS))
    throw invalid('lifetime', `must be a whole number of seconds from 1 to ${MAX_TOKEN_LIFETIME_SECONDS}`);
  return seconds;
}

/** A database user manages only its own secrets and tokens; `userName`, when given, must be the caller. */
export function checkOwnUser(identity: DbIdentity, userName: unknown): void {
  if (userName === undefined || userName === null || userName === '') return;
  if (typeof userName !== 'string' || userName.toLowerCase() !== identity.username.toLowerCase())
    throw new AppError('forbidden', {
      field: 'userName',
      reason:
        `must be the database user the request is authenticated as ("${identity.username}"): ` +
        'a database user manages only its own secrets and tokens',
    });
}
