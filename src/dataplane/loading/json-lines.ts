import { isLosslessNumber, parse, stringify } from 'lossless-json';
import { columnKey } from './job-compile.js';
import type { TextValue } from './job-types.js';

/** Why a JSON line gives no values: not one JSON object, or without a key the job reads. */
export type JsonLineFault = 'invalid' | 'missing';

/**
 * The lines of a `JSON_FILE="true"` file, each one JSON object, laid out as the columns of a
 * CSV line would be: one value per key the job reads (`keys`, which the job's `$"key"` and
 * `$"a":"b"` are bound to, as to a header line), as text.
 *
 * Numbers keep the digits they were written with (an id past 2^53 stays exact, `1.50` stays
 * `1.50`), so the attribute's own check converts them as it would the same text in a CSV file.
 */
export class JsonLines {
  /** The keys, as `columnKey` names them. */
  readonly keys: string[];
  private readonly paths: string[][];

  /** `tokens`: what the job reads of each line (`planTokens`). */
  constructor(tokens: TextValue[]) {
    // A Map, so that a job naming many keys costs linear time to lay out.
    const paths = new Map<string, string[]>();
    for (const v of tokens)
      if (v.kind === 'columnName' && !paths.has(columnKey(v))) paths.set(columnKey(v), v.path ?? [v.name]);
    this.keys = [...paths.keys()];
    this.paths = [...paths.values()];
  }

  /** The values of one line, in the order of `keys`. */
  values(line: string): string[] | JsonLineFault {
    let object: unknown;
    try {
      object = parse(line);
    } catch {
      // A syntax error, or nesting deeper than the parser's stack (a RangeError): either way not a line to load.
      return 'invalid';
    }
    if (!isObject(object)) return 'invalid';
    const out: string[] = [];
    for (const path of this.paths) {
      let at: unknown = object;
      for (const key of path) at = isObject(at) && Object.hasOwn(at, key) ? at[key] : undefined;
      const text = tokenText(at);
      if (text === undefined) return 'missing';
      out.push(text);
    }
    return out;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isLosslessNumber(v);

/**
 * A JSON value as a loading token: a string as it is, a number as written, an object or array
 * as JSON text; null as nothing.
 */
function tokenText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (isLosslessNumber(v)) return v.value;
  return stringify(v);
}
