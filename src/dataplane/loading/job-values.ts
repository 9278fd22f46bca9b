import { CatalogError } from '../catalog.js';
import {
  isNumericType,
  type AttributeDef,
  type AttributeTypeName,
  type AttributeValue,
  type ScalarTypeName,
  type TupleDef,
} from '../schema-types.js';
import { checkShapedValue, shapeDefault, shapeText } from '../typed-values.js';
import { applyOp } from '../attribute-values.js';
import type { LoadValue, Reducer, TextValue } from './job-types.js';

/**
 * What a `VALUES` item writes into its attribute. Scalars are read from text; a tuple is built
 * from its fields' text; LIST, SET and MAP attributes load cumulatively, as TigerGraph's loader
 * does: what a line gives (one element, a `SPLIT` token, `LIST(…)`/`SET(…)`, a `(key -> value)`
 * pair, `MAP(…)`) is added to what the attribute holds, never put in its place. `REDUCE(fn(…))`
 * makes any attribute combine what it holds with each line's value by a reducer function. Every
 * value is checked by the same rules as a REST++ upsert's (typed-values.ts).
 */

/** Reads one value of a line; undefined when the line has too few columns. */
export type Getter = (fields: string[]) => string | undefined;

/** A value that does not fit its attribute: the object is left out (`invalidAttribute`). */
export const INVALID = Symbol('invalid');

/**
 * How a value read is combined with the attribute's: `append` is a collection's cumulative
 * loading (a LIST appends, a SET adds what it lacks, a MAP puts the keys given); the others are
 * `REDUCE`'s functions.
 */
export type Combine = Reducer | 'append';

/** What one `VALUES` item writes: an attribute, how to read it, and how it is combined. */
export interface Slot {
  attr: AttributeDef;
  /** Undefined for `_`; the read answers undefined when the line gives nothing (a missing key). */
  read: ((fields: string[]) => AttributeValue | typeof INVALID | undefined) | undefined;
  /** Undefined when the value read is put in the attribute's place. */
  combine: Combine | undefined;
}

/** `fn` of what `args` read on a line; undefined when any of them reads nothing there. */
export function applied<T, R>(
  args: ((fields: string[]) => T | undefined)[],
  fn: (values: T[]) => R,
): (fields: string[]) => R | undefined {
  return (f) => {
    const values: T[] = [];
    for (const a of args) {
      const v = a(f);
      if (v === undefined) return undefined;
      values.push(v);
    }
    return fn(values);
  };
}

/**
 * Text → the JSON value the attribute checks take. Only the number and epoch forms are turned
 * into numbers here; every check and conversion after that is theirs.
 */
export function fromText(type: AttributeTypeName, text: string): unknown {
  switch (type) {
    case 'INT':
    case 'UINT':
      return /^[-+]?\d+$/.test(text) ? Number(text) : text;
    case 'FLOAT':
    case 'DOUBLE':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'BOOL':
      return text === '1' ? 1 : text === '0' ? 0 : text;
    case 'DATETIME':
      return /^\d+$/.test(text) ? Number(text) : text;
    default:
      return text;
  }
}

/** Whether a value is text (a token, a literal, `_`, a token function), not built into a collection or tuple. */
export const isText = (v: LoadValue): v is TextValue =>
  v.kind === 'column' || v.kind === 'columnName' || v.kind === 'skip' || v.kind === 'literal' || v.kind === 'call';

/** What a collection or tuple attribute takes, for the refusal that names it. */
function accepted(attr: AttributeDef): string {
  switch (attr.type) {
    case 'LIST':
    case 'SET':
      return attr.valueType === 'UDT'
        ? `${attr.tuple!.name}(…) or ${attr.type}(${attr.tuple!.name}(…), …)`
        : `a token, SPLIT(token, "separator") or ${attr.type}(…)`;
    case 'MAP':
      return attr.valueType === 'UDT'
        ? `(key -> ${attr.tuple!.name}(…)) or MAP(…)`
        : '(key -> value), MAP((key -> value), …) or SPLIT(token, "key-value separator"[, "separator"])';
    case 'UDT':
      return `${attr.tuple!.name}(…) with its ${attr.tuple!.fields.length} fields`;
    default:
      return 'a token, a literal or a token function';
  }
}

/**
 * Whether a `VALUES` item can load the attribute; the refusal names the attribute, its type and
 * what it takes. `at` is where the destination clause is, in the job's text.
 */
export function checkSlotValue(attr: AttributeDef, v: LoadValue, at: string): void {
  if (v.kind === 'reduce') {
    if (!fits(attr, v.arg))
      throw new CatalogError(
        `The attribute ${attr.name} (${shapeText(attr)}) reduces ${reducedPiece(attr)}, ` +
          `not what ${v.fn} is given ${at}.`,
      );
    if (!reducerTakes(v.fn, attr))
      throw new CatalogError(
        `The reducer ${v.fn} does not apply to attribute ${attr.name} (${shapeText(attr)}): ` +
          `max and min take numbers; and, or BOOL, INT and UINT; add numbers, STRING, LIST, SET and MAP; ` +
          `overwrite any type but MAP ${at}.`,
      );
    return;
  }
  if (!fits(attr, v))
    throw new CatalogError(`The attribute ${attr.name} (${shapeText(attr)}) is loaded from ${accepted(attr)} ${at}.`);
}

/** What one line gives a reduced attribute: an element of a LIST or SET, a pair of a MAP, the value of another. */
function reducedPiece(attr: AttributeDef): string {
  const tuple = attr.tuple?.name;
  switch (attr.type) {
    case 'LIST':
    case 'SET':
      return tuple ? `one ${tuple}(…) a line` : 'one element a line';
    case 'MAP':
      return tuple ? `one (key -> ${tuple}(…)) a line` : 'one (key -> value) a line';
    case 'UDT':
      return `one ${tuple}(…) a line`;
    default:
      return 'one token a line';
  }
}

function reducerTakes(fn: Reducer, attr: AttributeDef): boolean {
  const numeric = isNumericType(attr.type);
  switch (fn) {
    case 'max':
    case 'min':
      return numeric;
    case 'and':
    case 'or':
      return attr.type === 'BOOL' || attr.type === 'INT' || attr.type === 'UINT';
    case 'add':
      return numeric || ['STRING', 'LIST', 'SET', 'MAP'].includes(attr.type);
    case 'overwrite':
      return attr.type !== 'MAP';
    case 'ignore_if_exists':
      return true;
  }
}

const tupleFits = (tuple: TupleDef | undefined, v: LoadValue) =>
  v.kind === 'tuple' && tuple !== undefined && v.name === tuple.name && v.fields.length === tuple.fields.length;

function fits(attr: AttributeDef, v: LoadValue): boolean {
  if (v.kind === 'skip') return true;
  const udtElements = attr.valueType === 'UDT';
  switch (attr.type) {
    case 'LIST':
    case 'SET':
      if (udtElements)
        return (
          tupleFits(attr.tuple, v) ||
          (v.kind === 'collection' && v.of === attr.type && v.items.every((i) => tupleFits(attr.tuple, i)))
        );
      return (
        isText(v) ||
        (v.kind === 'split' && v.separators.length === 1) ||
        (v.kind === 'collection' && v.of === attr.type && v.items.every(isText))
      );
    case 'MAP': {
      const pairFits = (p: LoadValue) =>
        p.kind === 'pair' && (udtElements ? tupleFits(attr.tuple, p.value) : isText(p.value));
      return (
        pairFits(v) ||
        (v.kind === 'collection' && v.of === 'MAP' && v.items.every(pairFits)) ||
        (v.kind === 'split' && !udtElements)
      );
    }
    case 'UDT':
      return tupleFits(attr.tuple, v);
    default:
      return isText(v);
  }
}

/**
 * The slot of a `VALUES` item that `checkSlotValue` accepted; `text` reads a text value of a
 * line. Collections and tuples are built as JSON and checked whole by `checkShapedValue`, so a
 * loaded value meets the same rules as an upserted one (a SET's duplicates dropped, a MAP's
 * keys converted, a tuple's STRING sizes).
 */
export function slotOf(attr: AttributeDef, v: LoadValue, text: (v: TextValue) => Getter): Slot {
  if (v.kind === 'reduce') return { ...slotOf(attr, v.arg, text), combine: v.fn };
  const combine = attr.type === 'LIST' || attr.type === 'SET' || attr.type === 'MAP' ? 'append' : undefined;
  if (v.kind === 'skip') return { attr, read: undefined, combine };
  const raw = rawReader(attr, v, text);
  return {
    attr,
    combine,
    read: (f) => {
      const value = raw(f);
      if (value === undefined) return undefined;
      if (value === INVALID) return INVALID;
      const checked = checkShapedValue(attr, value);
      return checked.ok ? checked.value : INVALID;
    },
  };
}

type Raw = (fields: string[]) => unknown;

/** Reads the JSON form of an item's value, before the attribute's check. */
function rawReader(attr: AttributeDef, v: LoadValue, text: (v: TextValue) => Getter): Raw {
  const element = (item: LoadValue): Raw =>
    item.kind === 'tuple' ? tupleReader(attr.tuple!, item, text) : scalar(attr.valueType as ScalarTypeName, item);
  const scalar = (type: AttributeTypeName, item: LoadValue): Raw => {
    const get = text(item as TextValue);
    return (f) => {
      const t = get(f);
      return t === undefined ? undefined : fromText(type, t);
    };
  };
  switch (attr.type) {
    case 'LIST':
    case 'SET': {
      if (v.kind === 'split') {
        const get = text(v.arg);
        const [separator] = v.separators as [string];
        const type = attr.valueType as ScalarTypeName;
        // An empty token is no element, not one empty one.
        return (f) => {
          const t = get(f);
          return t === undefined ? undefined : t === '' ? [] : t.split(separator).map((e) => fromText(type, e));
        };
      }
      const items = v.kind === 'collection' ? v.items : [v];
      return applied(items.map(element), (values) => values);
    }
    case 'MAP': {
      if (v.kind === 'split') return splitMap(attr.valueType as ScalarTypeName, v, text);
      const pairs = (v.kind === 'collection' ? v.items : [v]) as Extract<LoadValue, { kind: 'pair' }>[];
      return applied(
        pairs.flatMap((p) => [text(p.key), element(p.value)]),
        (values) => {
          const out: Record<string, unknown> = {};
          for (let i = 0; i < values.length; i += 2) out[values[i] as string] = values[i + 1];
          return out;
        },
      );
    }
    case 'UDT':
      return tupleReader(attr.tuple!, v as Extract<LoadValue, { kind: 'tuple' }>, text);
    default:
      return scalar(attr.type, v);
  }
}

function tupleReader(tuple: TupleDef, v: Extract<LoadValue, { kind: 'tuple' }>, text: (v: TextValue) => Getter): Raw {
  return applied(v.fields.map(text), (values) =>
    Object.fromEntries(tuple.fields.map((field, i) => [field.name, fromText(field.type, values[i]!)])),
  );
}

/** `SPLIT(token, pairSeparator[, separator])` into a MAP: a pair without its separator does not fit. */
function splitMap(type: ScalarTypeName, v: Extract<LoadValue, { kind: 'split' }>, text: (v: TextValue) => Getter): Raw {
  const get = text(v.arg);
  const [pairSeparator, separator] = v.separators as [string, string | undefined];
  return (f) => {
    const t = get(f);
    if (t === undefined) return undefined;
    const out: Record<string, unknown> = {};
    if (t === '') return out;
    for (const pair of separator === undefined ? [t] : t.split(separator)) {
      const at = pair.indexOf(pairSeparator);
      if (at < 0) return INVALID;
      out[pair.slice(0, at)] = fromText(type, pair.slice(at + pairSeparator.length));
    }
    return out;
  };
}

/** What lines give an attribute that combines, folded so far, and for a SET the elements it holds (as JSON). */
export interface Fold {
  by: Combine;
  value: AttributeValue;
  seen?: Set<string>;
}

/** What lines give attributes that combine (collections, `REDUCE`), by attribute name, folded line by line. */
export type Folded = Record<string, Fold>;

/**
 * Combines `incoming` (a line's checked value) into `fold`, whose value it owns and changes in
 * place: a LIST, SET or MAP grows by what is added, never copied, so that many lines naming one
 * object cost what their values do, not their number times the collection's size.
 */
function combineInto(attr: AttributeDef, fold: Fold, incoming: AttributeValue): void {
  const by = fold.by;
  switch (by) {
    case 'overwrite':
      fold.value = incoming;
      fold.seen = undefined;
      return;
    case 'ignore_if_exists':
      return;
    case 'max':
    case 'min':
      fold.value = applyOp(by, fold.value, incoming);
      return;
    case 'and':
    case 'or': {
      if (attr.type === 'BOOL') {
        fold.value = applyOp(by, fold.value, incoming);
        return;
      }
      // Bitwise on INT and UINT, over the whole exact range (JavaScript's & and | cut to 32 bits).
      const [a, b] = [BigInt(fold.value as number), BigInt(incoming as number)];
      fold.value = Number(by === 'and' ? a & b : a | b);
      return;
    }
    case 'add':
    case 'append':
      break;
  }
  if (attr.type === 'LIST') {
    const list = fold.value as AttributeValue[];
    for (const e of incoming as AttributeValue[]) list.push(e);
  } else if (attr.type === 'SET') {
    const set = fold.value as AttributeValue[];
    const seen = (fold.seen ??= new Set(set.map((e) => JSON.stringify(e))));
    for (const e of incoming as AttributeValue[]) {
      const key = JSON.stringify(e);
      if (!seen.has(key)) {
        seen.add(key);
        set.push(e);
      }
    }
  } else if (attr.type === 'MAP') {
    const map = fold.value as Record<string, AttributeValue>;
    // add((key -> value)): the values of a key given again sum (numbers) or join (STRING); else the later one.
    const sums = by === 'add' && (attr.valueType === 'STRING' || isNumericType(attr.valueType));
    for (const [k, v] of Object.entries(incoming as Record<string, AttributeValue>))
      map[k] = sums && k in map ? applyOp('add', map[k]!, v) : v;
  } else {
    fold.value = applyOp('add', fold.value, incoming);
  }
}

const attributeNamed = (attributes: AttributeDef[], name: string) => attributes.find((a) => a.name === name)!;

/** Folds what a later line gives into what earlier lines of the same object gave (`into` owns its values). */
export function foldInto(into: Folded, more: Folded, attributes: AttributeDef[]): void {
  for (const name in more) {
    const before = into[name];
    const next = more[name]!;
    if (!before) into[name] = next;
    else {
      before.by = next.by;
      combineInto(attributeNamed(attributes, name), before, next.value);
    }
  }
}

/**
 * Puts into `patch` each folded attribute's value for the row: combined with what the row holds
 * (its JSON) when it exists; a new row takes the lines' folded value, as the first line gives
 * an object that does not exist yet its value whatever the reducer.
 */
export function foldOntoRow(
  patch: Record<string, AttributeValue>,
  folded: Folded,
  attributes: AttributeDef[],
  row: string | undefined,
): void {
  const current = row === undefined ? undefined : (JSON.parse(row) as Record<string, AttributeValue>);
  for (const name in folded) {
    const { by, value } = folded[name]!;
    const attr = attributeNamed(attributes, name);
    if (!current) patch[name] = value;
    else {
      const fold: Fold = { by, value: current[name] ?? shapeDefault(attr) };
      combineInto(attr, fold, value);
      patch[name] = fold.value;
    }
  }
}
