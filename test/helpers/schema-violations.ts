import type { SeededRandom } from './seeded-random.js';

/** The JSON Schema subset the published OpenAPI document uses for request bodies and parameters. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  uniqueItems?: boolean;
}

export type Segment = string | number;

/** One way a value breaks its schema: where, what to put there, and the FieldName the server must name. */
export interface Violation {
  label: string;
  at: Segment[];
  /** The value to put at `at`; `undefined` removes the property. */
  value: unknown;
  field: string;
}

/** `['addons', 0, 'enable']` → `addons[0].enable`, as the server writes FieldName. */
export function fieldName(at: Segment[]): string {
  return at.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

/** The JSON types a schema accepts, or 'any' when it does not constrain the type. */
export function acceptedTypes(s: JsonSchema): Set<string> | 'any' {
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    const all = new Set<string>();
    for (const b of branches) {
      const t = acceptedTypes(b);
      if (t === 'any') return 'any';
      t.forEach((x) => all.add(x));
    }
    return all;
  }
  if (s.type === undefined) return 'any';
  const types = new Set(Array.isArray(s.type) ? s.type : [s.type]);
  if (types.has('number')) types.add('integer');
  return types;
}

/** Values of every JSON type; `integer` is a whole number, `number` is not. */
const samples: Record<string, unknown> = {
  string: 'fuzz',
  number: 1.5,
  integer: 7,
  boolean: true,
  null: null,
  array: [1],
  object: { fuzz: 1 },
};

export type Hints = Record<string, unknown>;

/** The JSON type of a value, as a schema names it. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * A small value the schema accepts; `hints` give known-good values by property name, taken
 * where the schema accepts their type (`enable` is a query string in one place, a boolean in another).
 */
export function exampleOf(s: JsonSchema, hints: Hints = {}, key?: string): unknown {
  const types = acceptedTypes(s);
  if (key !== undefined && key in hints && (types === 'any' || types.has(jsonTypeOf(hints[key])))) return hints[key];
  const branch = (s.anyOf ?? s.oneOf)?.[0];
  if (branch) return exampleOf(branch, hints, key);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return s.format === 'date-time' ? '2099-01-01T00:00:00Z' : 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? Math.min(0, s.maximum ?? 0);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => exampleOf(s.items ?? {}, hints));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) out[k] = exampleOf(s.properties?.[k] ?? {}, hints, k);
      return out;
    }
    default:
      return null;
  }
}

function childSchema(s: JsonSchema, seg: Segment): JsonSchema {
  const branch = (s.anyOf ?? s.oneOf)?.find((b) => (typeof seg === 'number' ? b.items : b.properties));
  const from = branch ?? s;
  return (typeof seg === 'number' ? from.items : from.properties?.[seg]) ?? {};
}

/**
 * `base` with `value` put at `at`. Containers missing on the way are created as the schema's
 * example, so the rest of the body stays valid and the violation is the only problem in it.
 */
export function place(base: unknown, root: JsonSchema, at: Segment[], value: unknown, hints: Hints = {}): unknown {
  if (at.length === 0) return value;
  const out = structuredClone(base) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = out;
  let schema = root;
  for (const [i, seg] of at.entries()) {
    const child = childSchema(schema, seg);
    if (i === at.length - 1) {
      if (value === undefined) delete node[seg];
      else node[seg] = value;
      break;
    }
    if (node[seg] === undefined || node[seg] === null || typeof node[seg] !== 'object') {
      node[seg] =
        typeof at[i + 1] === 'number' ? [exampleOf(child.items ?? {}, hints)] : exampleOf(child, hints, String(seg));
    }
    const next = node[seg] as Record<string | number, unknown>;
    if (Array.isArray(next) && next.length === 0) next.push(exampleOf(child.items ?? {}, hints));
    node = next;
    schema = child;
  }
  return out;
}

const HUGE = 100 * 1024;
/** A list this long as JSON: far past any maxItems, and costly to check item by item. */
const LONG_LIST_BYTES = 512 * 1024;

/** Every violation this generator knows for the value at `at` with schema `s`. */
export function violationsOf(
  s: JsonSchema,
  at: Segment[],
  rng: SeededRandom,
  hints: Hints = {},
  depth = 0,
): Violation[] {
  const out: Violation[] = [];
  const add = (label: string, value: unknown, where: Segment[] = at) =>
    out.push({ label: `${fieldName(where) || 'body'}: ${label}`, at: where, value, field: fieldName(where) || 'body' });
  const types = acceptedTypes(s);

  if (types !== 'any') {
    for (const [type, value] of Object.entries(samples)) if (!types.has(type)) add(`wrong type ${type}`, value);
  }
  const strings = (s.anyOf ?? s.oneOf)?.find((b) => b.type === 'string') ?? (s.type === 'string' ? s : undefined);
  if (strings) {
    if (strings.enum) add('not one of the enum', `not-${rng.word(6)}`);
    if (strings.maxLength !== undefined) {
      add(`${HUGE} characters`, rng.word(16).repeat(HUGE / 16));
      if (strings.maxLength < 4096) add(`maxLength ${strings.maxLength} + 1`, 'y'.repeat(strings.maxLength + 1));
      // Newlines only (each sent as the escape \n): nothing may treat them as lines of its own.
      add(`maxLength ${strings.maxLength} + 1 newlines`, '\n'.repeat(strings.maxLength + 1));
    }
    if ((strings.minLength ?? 0) > 0) add('empty string', '');
    if (strings.format === 'date-time') add('not a date-time', `2026-13-45T99:99:99Z-${rng.word(4)}`);
  }
  const numbers = s.type === 'integer' || s.type === 'number' ? s : undefined;
  if (numbers) {
    if (numbers.minimum !== undefined) add(`below minimum ${numbers.minimum}`, numbers.minimum - 1);
    if (numbers.maximum !== undefined) {
      add(`above maximum ${numbers.maximum}`, numbers.maximum + 1);
      add('1e308', 1e308);
    }
    if (numbers.type === 'integer') add('fraction', (numbers.minimum ?? 0) + 0.5);
  }
  if (s.type === 'array') {
    const item = exampleOf(s.items ?? {}, hints);
    const list = (length: number) =>
      Array.from({ length }, (_, i) => (typeof item === 'string' ? `${item}${i}` : item));
    if (s.maxItems !== undefined) {
      add(`maxItems ${s.maxItems} + 1`, list(s.maxItems + 1));
      // Of items that are wrong too: a check that went on past maxItems would find each.
      const itemTypes = acceptedTypes(s.items ?? {});
      const wrong = itemTypes === 'any' ? item : Object.entries(samples).find(([t]) => !itemTypes.has(t))![1];
      const long = Math.ceil(LONG_LIST_BYTES / (JSON.stringify(wrong).length + 1));
      add(
        `${LONG_LIST_BYTES / 1024} KiB list of wrong items`,
        Array.from({ length: long }, () => wrong),
      );
    }
    if (s.uniqueItems) add('duplicate items', [item, item]);
    if (s.items && depth < 4) out.push(...violationsOf(s.items, [...at, 0], rng, hints, depth + 1));
  }
  const objects = (s.anyOf ?? s.oneOf)?.find((b) => b.type === 'object') ?? (s.type === 'object' ? s : undefined);
  if (objects && depth < 4) {
    if (objects.maxProperties !== undefined)
      add(
        `maxProperties ${objects.maxProperties} + 1`,
        Object.fromEntries(Array.from({ length: objects.maxProperties + 1 }, (_, i) => [`f${i}`, i])),
      );
    if (objects.additionalProperties === false) {
      const unknown = `zz_unknown_${rng.word(5)}`;
      add('unknown field', rng.pick([1, 'x', null, {}]), [...at, unknown]);
    }
    for (const k of objects.required ?? []) add('required field missing', undefined, [...at, k]);
    for (const [k, ps] of Object.entries(objects.properties ?? {}))
      out.push(...violationsOf(ps, [...at, k], rng, hints, depth + 1));
  }
  return out;
}

/**
 * Property paths whose schema accepts any object (no additionalProperties: false): deep nesting is not a schema error
 * there.
 */
export function openObjectPaths(s: JsonSchema, at: Segment[] = [], depth = 0): Segment[][] {
  if (depth > 6) return [];
  const out: Segment[][] = [];
  const objects = (s.anyOf ?? s.oneOf)?.find((b) => b.type === 'object') ?? (s.type === 'object' ? s : undefined);
  if (objects && objects.additionalProperties !== false && at.length > 0) out.push(at);
  for (const [k, ps] of Object.entries(objects?.properties ?? {}))
    out.push(...openObjectPaths(ps, [...at, k], depth + 1));
  if (s.type === 'array' && s.items) out.push(...openObjectPaths(s.items, [...at, 0], depth + 1));
  return out;
}

/** Where a schema leaves a string, number or list unbounded: `name (what is missing)`. */
export function unboundedParts(s: JsonSchema, at: Segment[] = [], depth = 0): string[] {
  if (depth > 8) return [];
  const out: string[] = [];
  const name = fieldName(at) || 'body';
  for (const b of s.anyOf ?? s.oneOf ?? []) out.push(...unboundedParts(b, at, depth + 1));
  if (s.type === 'string' && s.maxLength === undefined && !s.enum && s.const === undefined)
    out.push(`${name} (string without maxLength)`);
  if ((s.type === 'integer' || s.type === 'number') && (s.maximum === undefined || s.minimum === undefined))
    out.push(`${name} (number without minimum and maximum)`);
  if (s.type === 'array') {
    if (s.maxItems === undefined) out.push(`${name} (array without maxItems)`);
    if (s.items) out.push(...unboundedParts(s.items, [...at, 0], depth + 1));
  }
  for (const [k, ps] of Object.entries(s.properties ?? {})) out.push(...unboundedParts(ps, [...at, k], depth + 1));
  return out;
}
