import { Problems } from './errors.js';

/**
 * The one rule for resource names (workgroups, workspaces, databases, cloud providers, API
 * keys): Unicode NFC, 1–64 characters (code points) after normalisation, no control
 * characters, line or paragraph separators, or bidirectional formatting characters (which
 * make a name display as another). Names are stored as normalised; uniqueness ignores case
 * through `nameKey` (src/store/name-key.ts), which both stores compare byte for byte.
 */
export const NAME_MAX_LENGTH = 64;

const FORBIDDEN = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/u;

/** Length in code points, as JSON Schema and PostgreSQL count it (not UTF-16 units). */
export const codePoints = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/**
 * The name as stored, or a problem added for `field` (then the returned value is not to be
 * used). `undefined` passes through, for optional fields.
 */
export function acceptName<T extends string | undefined>(problems: Problems, field: string, name: T): T {
  if (name === undefined) return name;
  const normal = name.normalize('NFC');
  if (FORBIDDEN.test(normal)) {
    problems.add(field, 'must not contain control characters or bidirectional formatting characters');
  } else if (normal.length === 0 || codePoints(normal) > NAME_MAX_LENGTH) {
    problems.add(field, `must be 1 to ${NAME_MAX_LENGTH} characters long in Unicode NFC`);
  }
  return normal as T;
}

/** `acceptName` for a request that checks nothing else first: refuses at once (400 naming `field`). */
export function requireName<T extends string | undefined>(field: string, name: T): T {
  const problems = new Problems();
  const normal = acceptName(problems, field, name);
  problems.throwIfAny();
  return normal;
}

/** `text` cut to at most `max` code points, never inside a surrogate pair, and normalised. */
export function cutName(text: string, max = NAME_MAX_LENGTH): string {
  return Array.from(text.normalize('NFC')).slice(0, max).join('').normalize('NFC');
}
