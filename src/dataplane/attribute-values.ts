import {
  isNumericType,
  type AttributeTypeName,
  type AttributeValue,
  type PrimaryIdTypeName,
  type ScalarTypeName,
} from './schema-types.js';

/** A value checked against its attribute type, or the reason it does not fit. */
export type Checked = { ok: true; value: AttributeValue } | { ok: false; reason: string };

const ok = (value: AttributeValue): Checked => ({ ok: true, value });
const bad = (reason: string): Checked => ({ ok: false, reason });

/** Integers are kept exact: JSON numbers past 2^53 would lose digits silently. */
const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** The value a new vertex or edge gets for an attribute the payload does not give. */
export function typeDefault(type: ScalarTypeName): AttributeValue {
  switch (type) {
    case 'INT':
    case 'UINT':
    case 'FLOAT':
    case 'DOUBLE':
      return 0;
    case 'STRING':
      return '';
    case 'BOOL':
      return false;
    case 'DATETIME':
      return '1970-01-01 00:00:00';
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Seconds since the epoch → "YYYY-MM-DD hh:mm:ss" (UTC), as TigerGraph prints DATETIME. */
export function formatDatetime(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

const DATETIME_MIN = Date.UTC(1582, 9, 15) / 1000;
const DATETIME_MAX = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;
const datetimePattern = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?Z?)?$/;

/**
 * DATETIME input: "YYYY-MM-DD hh:mm:ss" (also "YYYY-MM-DD", an ISO "T" separator, fractional
 * seconds dropped) or whole seconds since the epoch; always UTC, as TigerGraph has no zones.
 */
export function parseDatetime(input: unknown): Checked {
  let seconds: number;
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) return bad('a DATETIME number must be whole seconds since 1970-01-01');
    seconds = input;
  } else if (typeof input === 'string') {
    const m = datetimePattern.exec(input);
    if (!m) return bad(`'${input}' is not a DATETIME; use "YYYY-MM-DD hh:mm:ss"`);
    const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((p) => (p === undefined ? undefined : Number(p)));
    const ms = Date.UTC(y!, mo! - 1, d!, h, mi, s);
    const back = new Date(ms);
    // Date.UTC rolls 2024-02-30 over into March; a real date comes back unchanged.
    if (
      back.getUTCFullYear() !== y ||
      back.getUTCMonth() !== mo! - 1 ||
      back.getUTCDate() !== d ||
      h > 23 ||
      mi > 59 ||
      s > 59
    )
      return bad(`'${input}' is not a valid date and time`);
    seconds = ms / 1000;
  } else {
    return bad('a DATETIME must be a string "YYYY-MM-DD hh:mm:ss" or a number of seconds');
  }
  if (seconds < DATETIME_MIN || seconds > DATETIME_MAX)
    return bad('a DATETIME must lie between 1582-10-15 00:00:00 and 9999-12-31 23:59:59');
  return ok(formatDatetime(seconds));
}

/**
 * Checks a JSON value against a scalar type and returns the value to store; the other types
 * need their whole definition (typed-values.ts).
 */
export function checkValue(type: AttributeTypeName, input: unknown): Checked {
  switch (type) {
    case 'FIXED_BINARY':
    case 'UDT':
    case 'LIST':
    case 'SET':
    case 'MAP':
      return bad(`a ${type} value cannot be used here`);
    case 'INT':
      if (typeof input !== 'number' || !Number.isInteger(input)) return bad(`${describe(input)} is not an INT`);
      if (Math.abs(input) > MAX_EXACT) return bad(`${input} is outside the exact INT range ±${MAX_EXACT}`);
      return ok(input);
    case 'UINT':
      if (typeof input !== 'number' || !Number.isInteger(input) || input < 0)
        return bad(`${describe(input)} is not a UINT`);
      if (input > MAX_EXACT) return bad(`${input} is outside the exact UINT range 0 to ${MAX_EXACT}`);
      return ok(input);
    case 'FLOAT':
    case 'DOUBLE':
      if (typeof input !== 'number' || !Number.isFinite(input)) return bad(`${describe(input)} is not a ${type}`);
      return ok(input);
    case 'STRING':
      return typeof input === 'string' ? ok(input) : bad(`${describe(input)} is not a STRING`);
    case 'BOOL':
      if (typeof input === 'boolean') return ok(input);
      if (input === 0 || input === 1) return ok(input === 1);
      if (typeof input === 'string' && /^(true|false)$/i.test(input)) return ok(input.toLowerCase() === 'true');
      return bad(`${describe(input)} is not a BOOL`);
    case 'DATETIME':
      return parseDatetime(input);
  }
}

/** A primary id from a URL or a payload key, in its canonical text form ("007" → "7" for INT). */
export function checkPrimaryId(type: PrimaryIdTypeName, id: string): Checked {
  if (type === 'STRING') return id.length > 0 ? ok(id) : bad('a vertex id must not be empty');
  const pattern = type === 'INT' ? /^[-+]?\d+$/ : /^\+?\d+$/;
  if (!pattern.test(id)) return bad(`'${id}' is not a valid ${type} vertex id`);
  const n = Number(id);
  if (Math.abs(n) > MAX_EXACT) return bad(`'${id}' is outside the exact ${type} id range`);
  return ok(String(n === 0 ? 0 : n));
}

/** The primary id as a stored attribute value: a number for INT/UINT ids. */
export function idAsAttribute(type: PrimaryIdTypeName, canonicalId: string): AttributeValue {
  return type === 'STRING' ? canonicalId : Number(canonicalId);
}

function describe(input: unknown): string {
  if (typeof input === 'string') return `'${input.length > 40 ? `${input.slice(0, 40)}…` : input}'`;
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'an object';
  return String(input);
}

/** Upsert operation codes, by their names and symbols. */
export const opCodes = {
  ignore_if_exists: 'ignore_if_exists',
  '~': 'ignore_if_exists',
  add: 'add',
  '+': 'add',
  and: 'and',
  '&': 'and',
  or: 'or',
  '|': 'or',
  max: 'max',
  '>': 'max',
  min: 'min',
  '<': 'min',
} as const;
export type OpCode = (typeof opCodes)[keyof typeof opCodes];

/** Whether an operation code applies to an attribute type at all. */
export function opFits(op: OpCode, type: AttributeTypeName): boolean {
  const numeric = isNumericType(type);
  switch (op) {
    case 'ignore_if_exists':
      return true;
    case 'add':
      return numeric || type === 'STRING' || type === 'LIST' || type === 'SET' || type === 'MAP';
    case 'and':
    case 'or':
      return type === 'BOOL';
    case 'max':
    case 'min':
      return numeric || type === 'DATETIME' || type === 'STRING';
  }
}

/**
 * Combines an existing value with a checked payload value under an operation code; the caller
 * checked `opFits`. UINT addition is range-checked by the caller with `checkValue`.
 */
export function applyOp(op: OpCode, current: AttributeValue, incoming: AttributeValue): AttributeValue {
  switch (op) {
    case 'ignore_if_exists':
      return current;
    case 'add':
      // LIST appends, SET adds the elements it lacks (typed-values.ts dedupes), MAP puts the given keys.
      if (Array.isArray(current)) return [...current, ...(incoming as AttributeValue[])];
      if (typeof current === 'object') return { ...current, ...(incoming as Record<string, AttributeValue>) };
      return typeof current === 'string' ? current + String(incoming) : (current as number) + (incoming as number);
    case 'and':
      return Boolean(current) && Boolean(incoming);
    case 'or':
      return Boolean(current) || Boolean(incoming);
    case 'max':
      return incoming > current ? incoming : current;
    case 'min':
      return incoming < current ? incoming : current;
  }
}
