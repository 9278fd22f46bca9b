import { checkValue } from './attribute-values.js';
import { fail } from './errors.js';
import type { AttributeDef, AttributeValue } from './schema-types.js';

export const comparisons = ['>=', '<=', '!=', '=', '>', '<'] as const;
export type Comparison = (typeof comparisons)[number];

export interface Condition {
  attr: string;
  op: Comparison;
  value: AttributeValue;
}

export interface SortKey {
  attr: string;
  descending: boolean;
}

/**
 * Splits on commas that are not inside double quotes (a backslash in quotes escapes the next
 * character). Parts are cut out of the text, not built a character at a time, which costs
 * more than linear time on long values.
 */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const attributeName = /^[A-Za-z_][A-Za-z0-9_]*/;
/** A decimal number, each part matched one way only: linear however long the text. */
const decimalNumber = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * One condition, `<attribute><op><value>` with blanks around each part allowed, read in one
 * pass: a pattern with a lazy value before optional trailing blanks backtracks over every
 * run of blanks inside the value, quadratic in its length.
 */
function readCondition(part: string): { name: string; op: Comparison; raw: string } | undefined {
  const text = part.trim();
  const name = attributeName.exec(text)?.[0];
  if (name === undefined) return undefined;
  const rest = text.slice(name.length).trimStart();
  // Two-character operators are listed first, so `>=` is not read as `>`.
  const op = comparisons.find((c) => rest.startsWith(c));
  return op && { name, op, raw: rest.slice(op.length).trimStart() };
}

/** Conditions one filter may join. */
export const MAX_FILTER_CONDITIONS = 100;

/**
 * `filter=age>30,name="x"`: conditions joined by AND, each checked against the attribute's
 * type. `attributes` is every attribute a matching row may have; a condition on an attribute
 * that none of them has is refused.
 */
export function parseFilter(text: string | undefined, attributes: Map<string, AttributeDef>): Condition[] {
  if (text === undefined || text.trim() === '') return [];
  const parts = splitTopLevel(text);
  // Each condition is a term of one SQL expression, whose depth SQLite bounds (1,000).
  if (parts.length > MAX_FILTER_CONDITIONS)
    return fail(
      'invalidParameter',
      `The filter has ${parts.length} conditions; at most ${MAX_FILTER_CONDITIONS} are allowed.`,
    );
  return parts.map((part) => {
    const condition = readCondition(part);
    if (!condition)
      return fail(
        'invalidParameter',
        `The filter condition '${part}' is not valid; write ` +
          `<attribute><op><value> with one of ${comparisons.join(' ')}.`,
      );
    const { name, op, raw } = condition;
    const attr = attributes.get(name);
    if (!attr) return fail('invalidParameter', `The filter names the attribute '${name}', which does not exist.`);
    let literal: unknown;
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) literal = raw.slice(1, -1).replace(/\\(.)/g, '$1');
    else if (decimalNumber.test(raw)) literal = Number(raw);
    else if (/^(true|false)$/i.test(raw)) literal = raw.toLowerCase() === 'true';
    else
      return fail(
        'invalidParameter',
        `The filter value '${raw}' for '${name}' is not valid; write strings and datetimes in double quotes.`,
      );
    if (attr.type === 'BOOL' && typeof literal === 'number' && literal !== 0 && literal !== 1)
      return fail('invalidParameter', `The filter value '${raw}' for '${name}' is not a BOOL.`);
    const checked = checkValue(attr.type, literal);
    if (!checked.ok) return fail('invalidParameter', `The filter value for '${name}' does not fit: ${checked.reason}.`);
    return { attr: name, op, value: checked.value };
  });
}

/**
 * `sort=-age,name`: attributes in order, `-` for descending. An attribute named again is the
 * first's (it could change no order), so the keys are at most the attributes, whatever the text.
 */
export function parseSort(text: string | undefined, attributes: Map<string, AttributeDef>): SortKey[] {
  if (text === undefined || text.trim() === '') return [];
  const keys = new Map<string, SortKey>();
  for (const part of text.split(',')) {
    const trimmed = part.trim();
    const descending = trimmed.startsWith('-');
    const attr = descending ? trimmed.slice(1) : trimmed;
    if (!attributes.has(attr)) return fail('invalidParameter', `The sort attribute '${attr}' does not exist.`);
    if (!keys.has(attr)) keys.set(attr, { attr, descending });
  }
  return [...keys.values()];
}

/**
 * `select=a,b`: the attributes to return, each once (each row is written with them); undefined
 * means all of them.
 */
export function parseSelect(text: string | undefined, attributes: Map<string, AttributeDef>): string[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const selected = new Set<string>();
  for (const part of text.split(',')) {
    const attr = part.trim();
    if (!attributes.has(attr)) return fail('invalidParameter', `The select attribute '${attr}' does not exist.`);
    selected.add(attr);
  }
  return [...selected];
}

/** `limit`: a whole number from 1; undefined when absent. */
export function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    return fail('invalidParameter', `The limit '${text}' is not valid; use a whole number from 1.`);
  return Number(text);
}

/** `count_only`, `vertex_must_exist` and the other boolean parameters. */
export function parseFlag(text: string | undefined, name: string): boolean {
  if (text === undefined || text === '') return false;
  if (/^(true|1)$/i.test(text)) return true;
  if (/^(false|0)$/i.test(text)) return false;
  return fail('invalidParameter', `The parameter ${name}='${text}' is not valid; use true or false.`);
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * SQL reading one attribute from the JSON `attrs` column. Names come from the schema, which
 * only holds identifiers; the check keeps any other text out of the SQL all the same.
 */
export function attributeSql(name: string): string {
  if (!identifier.test(name)) throw new Error(`not an attribute name: ${JSON.stringify(name)}`);
  return `json_extract(attrs, '$.${name}')`;
}

/** SQL for conditions on the JSON `attrs` column, with its parameters. */
export function conditionSql(conditions: Condition[]): { sql: string; params: (string | number)[] } {
  const params: (string | number)[] = [];
  const parts = conditions.map((c) => {
    // Filters hold scalars only: parseFilter checks them with checkValue, which refuses collections.
    params.push(typeof c.value === 'boolean' ? Number(c.value) : (c.value as string | number));
    return `${attributeSql(c.attr)} ${c.op} ?`;
  });
  return { sql: parts.join(' AND '), params };
}

/** SQL ORDER BY terms on the JSON `attrs` column. */
export function sortSql(keys: SortKey[]): string {
  return keys.map((k) => `${attributeSql(k.attr)} ${k.descending ? 'DESC' : 'ASC'}`).join(', ');
}

/** The same conditions evaluated on attribute values already read. */
export function matches(conditions: Condition[], attrs: Record<string, AttributeValue>): boolean {
  return conditions.every((c) => {
    if (!(c.attr in attrs)) return false;
    const v = attrs[c.attr]!;
    switch (c.op) {
      case '=':
        return v === c.value;
      case '!=':
        return v !== c.value;
      case '>':
        return v > c.value;
      case '>=':
        return v >= c.value;
      case '<':
        return v < c.value;
      case '<=':
        return v <= c.value;
    }
  });
}

/** Orders attribute maps by sort keys (used for edges, which are read whole). */
export function compareBy(keys: SortKey[]) {
  return (a: Record<string, AttributeValue>, b: Record<string, AttributeValue>): number => {
    for (const k of keys) {
      const x = a[k.attr];
      const y = b[k.attr];
      if (x === y) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      const order = x < y ? -1 : 1;
      return k.descending ? -order : order;
    }
    return 0;
  };
}

/** Attribute definitions by name. */
export function attributeMap(...lists: AttributeDef[][]): Map<string, AttributeDef> {
  const map = new Map<string, AttributeDef>();
  for (const list of lists) for (const a of list) if (!map.has(a.name)) map.set(a.name, a);
  return map;
}
