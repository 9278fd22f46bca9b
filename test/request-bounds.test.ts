import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { components } from '../src/schemas/component.js';
import { apiEndpoints } from '../src/schemas/endpoints/index.js';
import { jsonPath } from '../src/http/validation.js';

type Schema = Record<string, unknown>;
const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * What in a request schema lets the cost of checking a request grow past its size, or its
 * size past what the contract needs: `where (why)`. Every list has maxItems, every string
 * maxLength (or a closed set of values), every object a closed set of fields or maxProperties;
 * uniqueItems only over scalar items, which Ajv compares through an index (over anything
 * else, or items it must look up, it compares every pair).
 */
function unbounded(schema: Schema, at: Array<string | number>, out: string[], root = false): string[] {
  const where = jsonPath(at) || 'the whole';
  const ref = typeof schema.$ref === 'string' ? components().get(schema.$ref) : undefined;
  if (schema.$ref !== undefined && !ref) out.push(`${where} (refers to an unknown schema ${String(schema.$ref)})`);
  if (ref) return unbounded(ref as unknown as Schema, at, out, root);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const branch of (schema[key] as Schema[] | undefined) ?? []) unbounded(branch, at, out);
  const types = [schema.type].flat();
  if (types.includes('array')) {
    if (schema.maxItems === undefined) out.push(`${where} (a list without maxItems)`);
    const items = schema.items as Schema | undefined;
    if (schema.uniqueItems && !(items && typeof items.type === 'string' && SCALARS.has(items.type)))
      out.push(`${where} (uniqueItems over items without a scalar type: every pair is compared)`);
    if (items) unbounded(items, [...at, 0], out);
  }
  if (types.includes('string') && schema.maxLength === undefined && !schema.enum && schema.const === undefined)
    out.push(`${where} (a string without maxLength)`);
  if (types.includes('object')) {
    if (!root && schema.additionalProperties !== false && schema.maxProperties === undefined)
      out.push(`${where} (an object open to any field, without maxProperties)`);
    for (const [k, child] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {}))
      unbounded(child, [...at, k], out);
    for (const child of Object.values((schema.patternProperties as Record<string, Schema> | undefined) ?? {}))
      unbounded(child, [...at, '*'], out);
    if (typeof schema.additionalProperties === 'object')
      unbounded(schema.additionalProperties as Schema, [...at, '*'], out);
  }
  return out;
}

describe('request schemas', () => {
  it('bound every list, string and open object a request may carry, and compare list items cheaply', () => {
    const found = Object.entries(apiEndpoints).flatMap(([id, endpoint]) => [
      // The path and query objects hold what a request line of at most 16 KiB carries, and
      // a query parameter they do not name is neither checked nor kept.
      ...('params' in endpoint
        ? unbounded(endpoint.params as unknown as Schema, [], [], true).map((p) => `${id} path: ${p}`)
        : []),
      ...('query' in endpoint
        ? unbounded(endpoint.query as unknown as Schema, [], [], true).map((p) => `${id} query: ${p}`)
        : []),
      ...('body' in endpoint
        ? unbounded(endpoint.body as unknown as Schema, [], []).map((p) => `${id} body: ${p}`)
        : []),
    ]);
    assert.deepEqual(found, []);
  });

  it('are found wanting where they are', () => {
    const open = { type: 'object', additionalProperties: true } as Schema;
    const item = { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } };
    const list = { type: 'array', uniqueItems: true, items: item };
    const body = { type: 'object', maxProperties: 4, properties: { open, list } } as unknown as Schema;
    assert.deepEqual(unbounded(body, [], []), [
      'open (an object open to any field, without maxProperties)',
      'list (a list without maxItems)',
      'list (uniqueItems over items without a scalar type: every pair is compared)',
      'list[0].a (a string without maxLength)',
    ]);
    assert.deepEqual(unbounded({ type: 'object', properties: {} } as Schema, [], [], true), []);
  });
});
