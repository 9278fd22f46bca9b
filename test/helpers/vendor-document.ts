import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';

/**
 * The real service's own API description (Swagger 2.0), read where CI places the shared
 * reference material: beside the clone. It is reference data, never copied into the project.
 */
export const vendorDocumentPath = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../shared/vendor/savanna-openapi.json',
);

type Schema = Record<string, unknown>;

interface Operation {
  produces?: string[];
  responses: Record<string, { description?: string; schema?: Schema }>;
}

export interface VendorDocument {
  paths: Record<string, Record<string, Operation>>;
  definitions: Record<string, Schema>;
}

export function readVendorDocument(): VendorDocument | undefined {
  if (!existsSync(vendorDocumentPath)) return undefined;
  return JSON.parse(readFileSync(vendorDocumentPath, 'utf8')) as VendorDocument;
}

/** Every operation of the document as `METHOD path`, the path as the document spells it. */
export function operationKeys(doc: VendorDocument): string[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => m !== 'parameters')
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

/** What a successful answer must be, read from the document's first 2xx response. */
export type Expectation =
  | { kind: 'json'; status: number; validate: ValidateFunction }
  | { kind: 'empty'; status: number }
  | { kind: 'text'; status: number; contentType: string };

const SCHEMA_ID = 'savanna';

/** Swagger 2.0 refs point into the document's `definitions`; in Ajv they point into the registered schema. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node as Schema)) {
    out[k] =
      k === '$ref' && typeof v === 'string'
        ? v.replace(/^#\/definitions\//, `${SCHEMA_ID}#/definitions/`)
        : rewriteRefs(v);
  }
  return out;
}

const isBareObject = (s: unknown) =>
  typeof s === 'object' && s !== null && Object.keys(s).length === 1 && (s as Schema).type === 'object';

/**
 * The envelope as the vendor README says to read it: `allOf: [Response, {Result: X}]` is the
 * envelope with `Result` of type X; `Response.Result` is typed `object`, which would contradict
 * every X that is not one, so the envelope's own `Result` is left unconstrained, as is a `Result`
 * typed only as a bare `object` (it says nothing of its shape). `GET /org/api-keys` lists keys,
 * and `GET /users` users.
 */
function envelopeSchema(key: string, schema: Schema): Schema {
  // `GET /users` is typed as one bare OrgListUserResponse: read as the envelope listing them, as
  // every list is answered (all of that schema's fields are optional, so the bare reading would
  // accept any object at all).
  if (key === 'GET /users')
    schema = {
      allOf: [{ $ref: '#/definitions/Response' }, { properties: { Result: { type: 'array', items: schema } } }],
    };
  const parts = (schema.allOf as Schema[] | undefined) ?? [schema];
  const envelope = parts.find((p) => p.$ref === '#/definitions/Response');
  if (!envelope) return schema;
  const extra = parts.find((p) => p !== envelope) as { properties?: { Result?: Schema } } | undefined;
  let result = extra?.properties?.Result;
  if (key === 'GET /controller/v4/v2/org/api-keys' && result) result = { type: 'array', items: result };
  if (!result || isBareObject(result)) return { $ref: '#/definitions/Response' };
  return { allOf: [{ $ref: '#/definitions/Response' }, { properties: { Result: result }, required: ['Result'] }] };
}

/** Compiles the expectation of every operation of the document, keyed `METHOD path`. */
export function expectations(doc: VendorDocument): Map<string, Expectation> {
  const definitions = { ...doc.definitions };
  const response = definitions.Response as { properties: Schema };
  definitions.Response = { ...response, properties: { ...response.properties, Result: {} } };
  // The document's keywords beyond JSON Schema (x-enum-varnames) are annotations: not strict.
  const ajv = new Ajv.default({ strict: false, allErrors: true });
  ajv.addSchema({ $id: SCHEMA_ID, definitions: rewriteRefs(definitions) as Schema });
  const out = new Map<string, Expectation>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (method === 'parameters') continue;
      const key = `${method.toUpperCase()} ${path}`;
      const [code, answer] = Object.entries(op.responses).find(([c]) => c.startsWith('2'))!;
      const status = Number(code);
      const produces = op.produces?.[0] ?? 'application/json';
      if (!answer.schema) out.set(key, { kind: 'empty', status });
      else if (produces !== 'application/json') out.set(key, { kind: 'text', status, contentType: produces });
      else
        out.set(key, {
          kind: 'json',
          status,
          validate: ajv.compile(rewriteRefs(envelopeSchema(key, answer.schema)) as Schema),
        });
    }
  }
  return out;
}

/** The document's Response schema alone: what a refusal in the envelope (API-Disabled) must match. */
export function envelopeValidator(doc: VendorDocument): ValidateFunction {
  const ajv = new Ajv.default({ strict: false, allErrors: true });
  ajv.addSchema({ $id: SCHEMA_ID, definitions: rewriteRefs(doc.definitions) as Schema });
  return ajv.compile({ $ref: `${SCHEMA_ID}#/definitions/Response` });
}
