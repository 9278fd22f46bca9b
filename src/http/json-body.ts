import sjson from 'secure-json-parse';
import { AppError, invalid } from '../domain/errors.js';
import { jsonPath } from './validation.js';

/**
 * Deeper bodies are refused before parsing. No request body of the contract nests more than
 * a few levels; a free-form field (an add-on's enable_configuration) gets room to spare, and
 * the limit keeps recursive serialisation further down (JSON.stringify, the store) far from
 * the stack's end.
 */
export const MAX_BODY_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });
// With the u flag a surrogate pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/** A `\u0000` or a `\ud800`–`\udfff` escape (or a false alarm, such as an escaped backslash before u0000). */
const ESCAPED_SUSPECT = /\\u(?:0000|d[89a-f])/i;

/** Nesting depth of JSON text, counted outside strings without parsing; stops once past `limit`. */
function depthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

type Path = Array<string | number>;

const fieldOf = (path: Path) => jsonPath(path) || 'body';

/** Why a string may not be stored, or undefined when it may. */
function stringProblem(s: string): string | undefined {
  if (LONE_SURROGATE.test(s)) return 'contains a lone surrogate (\\ud800-\\udfff) and is not valid Unicode text';
  if (s.includes('\u0000')) return 'must not contain NUL (\\u0000) characters';
  return undefined;
}

/**
 * Strings must be Unicode text that both stores keep as sent: no lone surrogates (from
 * `\ud800` escapes) and no NUL (PostgreSQL text cannot hold it). Returns the first offender.
 * Recursive, as the body is at most MAX_BODY_DEPTH deep; one path is kept and named only
 * when a string is refused, so a long list costs no allocation per item.
 */
function badString(value: unknown, path: Path = []): { field: string; reason: string } | undefined {
  if (typeof value === 'string') {
    const reason = stringProblem(value);
    return reason ? { field: fieldOf(path), reason } : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const bad = badString(value[i], path);
      path.pop();
      if (bad) return bad;
    }
    return undefined;
  }
  for (const [k, item] of Object.entries(value)) {
    path.push(k);
    const reason = stringProblem(k);
    const bad = reason ? { field: fieldOf(path), reason: `(a field name) ${reason}` } : badString(item, path);
    path.pop();
    if (bad) return bad;
  }
  return undefined;
}

/**
 * Parses a JSON request body strictly: UTF-8 only (invalid bytes are refused, not replaced),
 * at most MAX_BODY_DEPTH levels, no prototype-poisoning keys, well-formed strings without NUL.
 * An empty body is no body.
 */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw invalid('body', 'is not valid UTF-8');
  }
  if (text === '') return undefined;
  if (depthExceeds(text, MAX_BODY_DEPTH))
    throw invalid('body', `nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep`);
  let value: unknown;
  try {
    value = sjson.parse(text, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw new AppError('invalid', { field: 'body', reason: `is not valid JSON (${(err as Error).message})` });
  }
  // JSON text carries NUL and lone surrogates only as \u escapes: without one, nothing to look for.
  const bad = ESCAPED_SUSPECT.test(text) ? badString(value) : undefined;
  if (bad) throw invalid(bad.field, bad.reason);
  return value;
}

/**
 * The body of a request to a route that takes none: nothing, or `{}`, is fine (and dropped);
 * fields are refused by name, as unknown fields of a strict body are; anything else is refused.
 */
export function refuseUnexpectedBody(body: unknown): undefined {
  if (body === undefined) return undefined;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 0) return undefined;
    throw new AppError(
      'invalid',
      keys.map((field) => ({ field, reason: 'is not a known field; this request takes no body' })),
    );
  }
  throw invalid('body', 'must be empty: this request takes no body');
}
