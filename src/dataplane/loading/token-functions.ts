import { randomUUID } from 'node:crypto';
import { parseDatetime } from '../attribute-values.js';
import { CatalogError } from '../catalog.js';
import { MAX_RECORD_CHARS } from './csv-records.js';

/*
 * The loader's token functions of `VALUES` items (`gsql_upper($1)`, `gsql_year($2)`): text from
 * text, the arity the parser checks and what each does, in one place.
 */

/**
 * Token functions a `VALUES` item may call: how many arguments each takes, and which of them
 * (by position) are whole numbers written in the job (`gsql_substring`'s start and length,
 * `gsql_replace`'s count).
 */
export const tokenFunctions: Record<string, { min: number; max: number; counts?: number[] }> = {
  gsql_concat: { min: 1, max: Infinity },
  gsql_trim: { min: 1, max: 1 },
  gsql_ltrim: { min: 1, max: 1 },
  gsql_rtrim: { min: 1, max: 1 },
  gsql_upper: { min: 1, max: 1 },
  gsql_lower: { min: 1, max: 1 },
  gsql_reverse: { min: 1, max: 1 },
  gsql_length: { min: 1, max: 1 },
  gsql_find: { min: 2, max: 2 },
  gsql_substring: { min: 2, max: 3, counts: [1, 2] },
  gsql_replace: { min: 3, max: 4, counts: [3] },
  gsql_uuid_v4: { min: 0, max: 0 },
  gsql_to_int: { min: 1, max: 1 },
  gsql_to_uint: { min: 1, max: 1 },
  gsql_to_bool: { min: 1, max: 1 },
  gsql_split_by_space: { min: 1, max: 1 },
  gsql_ts_to_epoch_seconds: { min: 1, max: 1 },
  gsql_current_time_epoch: { min: 1, max: 1 },
  gsql_year: { min: 1, max: 1 },
  gsql_month: { min: 1, max: 1 },
  gsql_day: { min: 1, max: 1 },
  gsql_year_epoch: { min: 1, max: 1 },
  gsql_month_epoch: { min: 1, max: 1 },
  gsql_day_epoch: { min: 1, max: 1 },
};

/** The token functions; what one cannot convert becomes text the attribute's own check refuses. */
export function tokenFunction(name: string): (args: string[]) => string {
  switch (name) {
    case 'gsql_concat':
      return (a) => a.join('');
    case 'gsql_trim':
      return (a) => a[0]!.trim();
    case 'gsql_ltrim':
      return (a) => a[0]!.trimStart();
    case 'gsql_rtrim':
      return (a) => a[0]!.trimEnd();
    case 'gsql_reverse':
      return (a) => [...a[0]!].reverse().join('');
    case 'gsql_length':
      return (a) => String([...a[0]!].length);
    case 'gsql_find':
      // The index in characters, as gsql_substring counts them.
      return (a) => {
        const at = a[0]!.indexOf(a[1]!);
        return String(at < 0 ? -1 : [...a[0]!.slice(0, at)].length);
      };
    case 'gsql_substring':
      return (a) => {
        const chars = [...a[0]!];
        const begin = Number(a[1]);
        return chars.slice(begin, a[2] === undefined ? undefined : begin + Number(a[2])).join('');
      };
    case 'gsql_replace':
      return (a) => {
        const [text, from, to] = a as [string, string, string];
        const max = a[3] === undefined ? Infinity : Number(a[3]);
        if (from === '') return text;
        let out = '';
        let at = 0;
        for (let n = 0; n < max; n++) {
          const next = text.indexOf(from, at);
          if (next < 0) break;
          out += text.slice(at, next) + to;
          at = next + from.length;
          // A short token replaced by a long one many times could outgrow memory: no value
          // may be longer than a whole line may be.
          if (out.length > MAX_RECORD_CHARS)
            throw new CatalogError(`gsql_replace made a value longer than ${MAX_RECORD_CHARS} characters.`);
        }
        return out + text.slice(at);
      };
    case 'gsql_uuid_v4':
      return () => randomUUID();
    case 'gsql_upper':
      return (a) => a[0]!.toUpperCase();
    case 'gsql_lower':
      return (a) => a[0]!.toLowerCase();
    case 'gsql_to_int':
    case 'gsql_to_uint':
      return (a) => {
        const n = Number(a[0]!.trim());
        return Number.isFinite(n) && a[0]!.trim() !== '' ? String(Math.trunc(n)) : a[0]!;
      };
    case 'gsql_split_by_space':
      // ASCII 30, TigerGraph's separator of a compound token's parts.
      return (a) => a[0]!.replaceAll(' ', '\x1e');
    case 'gsql_ts_to_epoch_seconds':
      return (a) => dateOrText(a[0]!, timestampSeconds(a[0]!), (s) => String(s));
    case 'gsql_current_time_epoch':
      return () => String(Math.floor(Date.now() / 1000));
    case 'gsql_year':
    case 'gsql_month':
    case 'gsql_day': {
      const part = datePart(name);
      return (a) => dateOrText(a[0]!, timestampSeconds(a[0]!), part);
    }
    case 'gsql_year_epoch':
    case 'gsql_month_epoch':
    case 'gsql_day_epoch': {
      const part = datePart(name);
      return (a) => dateOrText(a[0]!, /^-?\d+$/.test(a[0]!.trim()) ? Number(a[0]!.trim()) : undefined, part);
    }
    case 'gsql_to_bool':
      return (a) => String(/^(true|t|1)$/i.test(a[0]!.trim()));
    default:
      throw new CatalogError(`The token function ${name} is not supported by this data plane.`);
  }
}

/**
 * A timestamp token as TigerGraph's date token functions read it — `%Y-%m-%d %H:%M:%S`,
 * `%Y/%m/%d %H:%M:%S`, or `%Y-%m-%dT%H:%M:%S.000z` (what follows the dot ignored) — in seconds
 * since the epoch (UTC); undefined when it is none, or not a real date and time.
 */
function timestampSeconds(text: string): number | undefined {
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\..*)?$/.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map((p) => p.padStart(2, '0'));
  const checked = parseDatetime(`${y}-${mo}-${d} ${h}:${mi}:${s}`);
  return checked.ok ? Date.parse(`${String(checked.value).replace(' ', 'T')}Z`) / 1000 : undefined;
}

/** The year, month or day (UTC) of a number of seconds since the epoch, by the token function's name. */
function datePart(fn: string): (seconds: number) => string {
  const get = fn.startsWith('gsql_year')
    ? (d: Date) => d.getUTCFullYear()
    : fn.startsWith('gsql_month')
      ? (d: Date) => d.getUTCMonth() + 1
      : (d: Date) => d.getUTCDate();
  return (seconds) => String(get(new Date(seconds * 1000)));
}

/** `format` of the seconds read, or the token as it was (which the attribute's own check then refuses). */
const dateOrText = (text: string, seconds: number | undefined, format: (seconds: number) => string) =>
  seconds === undefined || !(Math.abs(seconds) <= 8.64e12) ? text : format(seconds);
