import { checkPrimaryId, checkValue, type Checked } from './attribute-values.js';
import type { AttributeValue, VertexTypeDef } from './schema-types.js';

/**
 * The id of a vertex with a composite `PRIMARY KEY (a, b, …)` is its key attributes' values
 * joined by commas in the key's order ("1,abc,2024-01-02 03:04:05"). The id is cut into as
 * many parts as the key has, the last taking the rest, so only the last part may hold a comma.
 */
export function compositeKeyValues(
  type: VertexTypeDef,
  id: string,
): { ok: true; values: Record<string, AttributeValue> } | { ok: false; reason: string } {
  const keys = type.compositeKey!;
  const parts: string[] = [];
  let from = 0;
  for (let k = 0; k < keys.length - 1; k++) {
    const comma = id.indexOf(',', from);
    if (comma < 0) break;
    parts.push(id.slice(from, comma));
    from = comma + 1;
  }
  parts.push(id.slice(from));
  if (parts.length !== keys.length)
    return {
      ok: false,
      reason: `the id of ${type.name} is its ${keys.length} key values joined by commas (${keys.join(',')})`,
    };
  const values: Record<string, AttributeValue> = {};
  for (const [i, name] of keys.entries()) {
    const attr = type.attributes.find((a) => a.name === name)!;
    const raw = parts[i]!;
    const numeric = attr.type === 'INT' || attr.type === 'UINT' || attr.type === 'FLOAT' || attr.type === 'DOUBLE';
    const checked: Checked = checkValue(attr.type, numeric && raw.trim() !== '' ? Number(raw) : raw);
    if (!checked.ok) return { ok: false, reason: `key ${name}: ${checked.reason}` };
    values[name] = checked.value;
  }
  return { ok: true, values };
}

/** The canonical id: each part as it is stored ("007" → "7" for an INT part). */
export function canonicalCompositeId(type: VertexTypeDef, values: Record<string, AttributeValue>): string {
  return type.compositeKey!.map((k) => String(values[k])).join(',');
}

/** A vertex id from a URL or payload in its stored form, whatever the type's key. */
export function checkVertexId(type: VertexTypeDef, raw: string): Checked {
  if (!type.compositeKey) return checkPrimaryId(type.primaryId.type, raw);
  const parts = compositeKeyValues(type, raw);
  return parts.ok ? { ok: true, value: canonicalCompositeId(type, parts.values) } : parts;
}
