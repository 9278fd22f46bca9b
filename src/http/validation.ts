import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../domain/errors.js';
import { components } from '../schemas/component.js';
import '../schemas/operations/index.js';

export type ValidationError = ErrorObject;

function makeAjv(coerce: boolean) {
  // Bodies are strict (no coercion, nothing removed); query strings and path parameters
  // arrive as text, so those may be coerced. allErrors reports every problem at once.
  const ajv = new Ajv.default({
    allErrors: true,
    coerceTypes: coerce,
    useDefaults: coerce,
    removeAdditional: false,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);
// Route schemas refer to the named schemas by $ref (src/schemas/component.ts).
for (const ajv of [bodyAjv, textAjv]) for (const schema of components().values()) ajv.addSchema(schema);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema);

/** Checks a request body outside a route (the CLI) exactly as a route would; no details when valid. */
export function bodyProblems(schema: { $id?: string }, value: unknown): ErrorDetail[] {
  const validate = (schema.$id && bodyAjv.getSchema(schema.$id)) || bodyAjv.compile(schema);
  return validate(value) ? [] : validationDetails(validate.errors ?? [], 'body');
}

/** `['addons', 1, 'addons_id']` → `addons[1].addons_id`, the FieldName form of a JSON path. */
export function jsonPath(parts: ReadonlyArray<string | number>): string {
  return parts.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
    '',
  );
}

/** `/addons/1/addons_id` → `addons[1].addons_id`. */
export function fieldPath(instancePath: string, child?: string): string {
  const parts: Array<string | number> = instancePath
    .split('/')
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
  if (child !== undefined) parts.push(child);
  return jsonPath(parts);
}

function describe(e: ErrorObject): { field: string; reason: string } {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { field: fieldPath(e.instancePath, String(p.missingProperty)), reason: 'is required' };
    case 'additionalProperties':
      return { field: fieldPath(e.instancePath, String(p.additionalProperty)), reason: 'is not a known field' };
    case 'type':
      return { field: fieldPath(e.instancePath), reason: `must be of type ${String(p.type)}` };
    case 'enum':
      return {
        field: fieldPath(e.instancePath),
        reason: `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`,
      };
    case 'minLength':
      return { field: fieldPath(e.instancePath), reason: `must be at least ${String(p.limit)} characters long` };
    case 'maxLength':
      return { field: fieldPath(e.instancePath), reason: `must be at most ${String(p.limit)} characters long` };
    default:
      return { field: fieldPath(e.instancePath), reason: e.message ?? 'is not valid' };
  }
}

/** One detail per problem, named by JSON path; path and query problems name the parameter. */
export function validationDetails(errors: ErrorObject[], context: string): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const e of errors) {
    // anyOf/oneOf summaries repeat what their branches already said.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const d = describe(e);
    if (!d.field && context !== 'body') d.field = context;
    if (!d.field) d.field = 'body';
    const id = `${d.field}\0${d.reason}`;
    if (!seen.has(id)) {
      seen.add(id);
      details.push(d);
    }
  }
  return details.length > 0 ? details : [{ field: context, reason: 'is not valid' }];
}
