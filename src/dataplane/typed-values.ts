import { checkValue, typeDefault, type Checked } from './attribute-values.js';
import type { AttributeValue, ScalarTypeName, TupleDef, ValueShape } from './schema-types.js';
import { isJsonObject as isObject } from './json-object.js';

/**
 * Values of every attribute type: scalars (attribute-values.ts), FIXED_BINARY, tuples and the
 * LIST/SET/MAP collections. Each check is one pass over the value it is given.
 */

const bad = (reason: string): Checked => ({ ok: false, reason });

/** The value a new vertex or edge gets for an attribute it is not given. */
export function shapeDefault(shape: ValueShape): AttributeValue {
  switch (shape.type) {
    case 'LIST':
    case 'SET':
      return [];
    case 'MAP':
      return {};
    case 'UDT':
      return tupleDefault(shape.tuple!);
    case 'FIXED_BINARY':
      return '';
    default:
      return typeDefault(shape.type);
  }
}

function tupleDefault(tuple: TupleDef): AttributeValue {
  return Object.fromEntries(tuple.fields.map((f) => [f.name, typeDefault(f.type)]));
}

/** A tuple value: an object of its fields (missing ones get their type's default, unknown ones are refused). */
export function checkTuple(tuple: TupleDef, input: unknown): Checked {
  if (!isObject(input)) return bad(`a ${tuple.name} value must be an object of its fields`);
  const out: Record<string, AttributeValue> = {};
  const known = new Set<string>();
  for (const f of tuple.fields) {
    known.add(f.name);
    if (!(f.name in input)) {
      out[f.name] = typeDefault(f.type);
      continue;
    }
    const checked = checkValue(f.type, input[f.name]);
    if (!checked.ok) return bad(`field ${f.name} of ${tuple.name}: ${checked.reason}`);
    if (f.type === 'STRING' && f.size !== undefined && (checked.value as string).length > f.size)
      return bad(`field ${f.name} of ${tuple.name} holds at most ${f.size} characters`);
    out[f.name] = checked.value;
  }
  const extra = Object.keys(input).find((k) => !known.has(k));
  if (extra !== undefined) return bad(`${tuple.name} has no field ${extra}`);
  return { ok: true, value: out };
}

function checkElement(shape: ValueShape, input: unknown): Checked {
  return shape.valueType === 'UDT' ? checkTuple(shape.tuple!, input) : checkValue(shape.valueType!, input);
}

/** A MAP key as the object key it is stored under: its checked value as text. */
function mapKey(type: ScalarTypeName, input: unknown): Checked {
  // Keys arrive as JSON object keys, so numbers come as text: "12" is the INT 12.
  const numeric = type === 'INT' || type === 'UINT' || type === 'FLOAT' || type === 'DOUBLE';
  const value = numeric && typeof input === 'string' && input.trim() !== '' ? Number(input) : input;
  const checked = checkValue(type, value);
  return checked.ok ? { ok: true, value: String(checked.value) } : checked;
}

/**
 * Checks a JSON value against an attribute's shape and returns the value to store. MAP values
 * come as an object or as TigerGraph's `{"keylist": […], "valuelist": […]}`.
 */
export function checkShapedValue(shape: ValueShape, input: unknown): Checked {
  switch (shape.type) {
    case 'FIXED_BINARY':
      if (typeof input !== 'string') return bad('a FIXED_BINARY value must be a string');
      if (shape.fixedSize !== undefined && Buffer.byteLength(input) > shape.fixedSize)
        return bad(`a FIXED_BINARY(${shape.fixedSize}) value holds at most ${shape.fixedSize} bytes`);
      return { ok: true, value: input };
    case 'UDT':
      return checkTuple(shape.tuple!, input);
    case 'LIST':
    case 'SET': {
      if (!Array.isArray(input)) return bad(`a ${shape.type} value must be a JSON list`);
      const out: AttributeValue[] = [];
      const seen = new Set<string>();
      for (const [i, element] of input.entries()) {
        const checked = checkElement(shape, element);
        if (!checked.ok) return bad(`element ${i}: ${checked.reason}`);
        if (shape.type === 'SET') {
          const key = JSON.stringify(checked.value);
          if (seen.has(key)) continue;
          seen.add(key);
        }
        out.push(checked.value);
      }
      return { ok: true, value: out };
    }
    case 'MAP': {
      if (!isObject(input)) return bad('a MAP value must be a JSON object');
      let pairs: [unknown, unknown][];
      if (Array.isArray(input.keylist) || Array.isArray(input.valuelist)) {
        const { keylist, valuelist } = input;
        if (!Array.isArray(keylist) || !Array.isArray(valuelist) || keylist.length !== valuelist.length)
          return bad('a MAP value as "keylist" and "valuelist" needs two lists of the same length');
        pairs = keylist.map((k, i) => [k, valuelist[i]]);
      } else {
        pairs = Object.entries(input);
      }
      const out: Record<string, AttributeValue> = {};
      for (const [k, v] of pairs) {
        const key = mapKey(shape.keyType!, k);
        if (!key.ok) return bad(`key ${JSON.stringify(k)}: ${key.reason}`);
        const value = checkElement(shape, v);
        if (!value.ok) return bad(`value of key ${JSON.stringify(k)}: ${value.reason}`);
        out[key.value as string] = value.value;
      }
      return { ok: true, value: out };
    }
    default:
      return checkValue(shape.type, input);
  }
}

/** A SET after an `add` operation: the elements it already had, then the new ones it lacked. */
export function dedupeSet(values: AttributeValue[]): AttributeValue[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The type as GSQL writes it in DDL: `LIST<INT>`, `MAP<INT, tuple2>`, `FIXED_BINARY(8)`, a tuple's name. */
export function shapeText(shape: ValueShape): string {
  const element = () => (shape.valueType === 'UDT' ? shape.tuple!.name : shape.valueType!);
  switch (shape.type) {
    case 'LIST':
    case 'SET':
      return `${shape.type}<${element()}>`;
    case 'MAP':
      return `MAP<${shape.keyType!}, ${element()}>`;
    case 'UDT':
      return shape.tuple!.name;
    case 'FIXED_BINARY':
      return `FIXED_BINARY(${shape.fixedSize ?? 0})`;
    default:
      return shape.type;
  }
}
