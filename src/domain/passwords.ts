import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const USERNAME = /^[a-z_][a-z0-9_.-]{0,62}$/i;
/** Names the database itself or operators use; a customer user must not shadow them. */
const RESERVED = new Set(['tigergraph', 'root', 'admin', 'administrator', 'system', 'superuser', 'gsql', 'public']);
export const MIN_PASSWORD_LENGTH = 12;

/** Why a username is not acceptable, or undefined. */
export function usernameProblem(username: string): string | undefined {
  if (!USERNAME.test(username)) {
    return 'must be 1-63 characters: a letter or underscore, then letters, digits, underscores, dots or hyphens';
  }
  if (RESERVED.has(username.toLowerCase())) return `"${username}" is reserved`;
  return undefined;
}

/** Why a password is too weak, or undefined. Never quotes the password. */
export function passwordProblem(password: string, username: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 3) return 'must contain at least 3 of: lower-case letters, upper-case letters, digits, symbols';
  if (password.toLowerCase().includes(username.toLowerCase())) return 'must not contain the username';
  return undefined;
}

/** scrypt cost: N=2^14, r=8, p=1 (16 MiB, tens of milliseconds). Stored with the hash, so it can change. */
const PARAMS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$<salt b64>$<hash b64>`: everything needed to verify later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Constant-time check of a password against a stored hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/** A hash no password matches, verified when the user does not exist so timing does not tell. */
export const decoyHash = [
  'scrypt',
  PARAMS.N,
  PARAMS.r,
  PARAMS.p,
  randomBytes(16).toString('base64'),
  randomBytes(KEY_LENGTH).toString('base64'),
].join('$');
