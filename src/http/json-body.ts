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

const fieldOf = (path: Array<string | number>) => jsonPath(path) || 'body';

/**
 * Strings must be Unicode text that both stores keep as sent: no lone surrogates (from
 * `\ud800` escapes) and no NUL (PostgreSQL text cannot hold it). Returns the first offender.
 */
function badString(value: unknown): { field: string; reason: string } | undefined {
  const stack: Array<[unknown, Array<string | number>]> = [[value, []]];
  const check = (s: string, path: Array<string | number>) => {
    if (LONE_SURROGATE.test(s))
      return {
        field: fieldOf(path),
        reason: 'contains a lone surrogate (\\ud800-\\udfff) and is not valid Unicode text',
      };
    if (s.includes('\u0000')) return { field: fieldOf(path), reason: 'must not contain NUL (\\u0000) characters' };
    return undefined;
  };
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const bad = check(v, path);
      if (bad) return bad;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, [...path, i]]));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        const bad = check(k, [...path, k]);
        if (bad) return { field: bad.field, reason: `(a field name) ${bad.reason}` };
        stack.push([item, [...path, k]]);
      }
    }
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
  const bad = badString(value);
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
