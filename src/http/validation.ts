import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../domain/errors.js';
import { components } from '../schemas/component.js';
import '../schemas/endpoints/index.js';

export type ValidationError = ErrorObject;

/**
 * Past about this many characters of JSON, a request part is checked for its first problem
 * only; up to it, for every problem, so a user sees all of them at once. Finding every problem
 * costs in proportion to the input (Ajv goes on past a list's maxItems into each of its items),
 * and each problem is kept and described: a 1 MiB list of bad values was answered with 83 MB.
 * Bodies written by hand are far smaller (a workspace with a few add-ons is under 2 KiB); 8 KiB
 * holds at most a few thousand problems (one takes 2 characters, `1,`), found and described in
 * under 10 ms.
 */
export const ALL_ERRORS_MAX_CHARS = 8 * 1024;

/**
 * Bodies are strict (no coercion, nothing removed); query strings and path parameters arrive
 * as text, so those may be coerced. `allErrors: false` stops at the first problem, and Ajv
 * checks a list's maxItems and a string's maxLength before its items and pattern, so an
 * oversized value costs no more than its size check.
 */
function makeAjv(coerce: boolean, allErrors: boolean) {
  const ajv = new Ajv.default({
    allErrors,
    coerceTypes: coerce,
    useDefaults: coerce,
    removeAdditional: false,
    strict: false,
  });
  addFormats.default(ajv);
  // Route schemas refer to the named schemas by $ref (src/schemas/component.ts).
  for (const schema of components().values()) ajv.addSchema(schema);
  return ajv;
}

interface Validators {
  first: Ajv.default;
  every: Ajv.default;
}
const bodyAjv: Validators = { first: makeAjv(false, false), every: makeAjv(false, true) };
const textAjv: Validators = { first: makeAjv(true, false), every: makeAjv(true, true) };

/** Whether `value` as JSON (without whitespace) takes about `limit` characters or fewer; reads no more of it. */
export function fitsIn(value: unknown, limit: number): boolean {
  let budget = limit;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') budget -= v.length + 2;
    else if (Array.isArray(v)) {
      budget -= v.length + 2;
      if (budget >= 0) stack.push(...v);
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      budget -= keys.length + 2;
      if (budget >= 0)
        for (const k of keys) {
          budget -= k.length + 3;
          stack.push((v as Record<string, unknown>)[k]);
        }
    } else budget -= String(v).length;
    if (budget < 0) return false;
  }
  return true;
}

/**
 * One schema checked in two passes: for the first problem, and, when there is one and the
 * value is small (ALL_ERRORS_MAX_CHARS), again for every problem. The Ajv function's second
 * argument (the parent, so the root may be coerced) is passed on.
 */
function twoPass(ajvs: Validators, schema: object): ValidateFunction {
  const first = ajvs.first.compile(schema);
  let every: ValidateFunction | undefined;
  const validate = ((data: unknown, cxt?: Parameters<ValidateFunction>[1]) => {
    if (first(data, cxt)) {
      validate.errors = null;
      return true;
    }
    if (fitsIn(data, ALL_ERRORS_MAX_CHARS)) {
      // Compiled when first needed: most schemas never see a small invalid value.
      every ??= ajvs.every.compile(schema);
      if (!every(data, cxt)) {
        validate.errors = every.errors;
        return false;
      }
    }
    validate.errors = first.errors;
    return false;
  }) as ValidateFunction;
  return Object.assign(validate, { schema: first.schema, schemaEnv: first.schemaEnv });
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  twoPass(httpPart === 'body' ? bodyAjv : textAjv, schema);

const bodyValidators = new WeakMap<object, ValidateFunction>();

/** Checks a request body outside a route (the CLI) exactly as a route would; no details when valid. */
export function bodyProblems(schema: { $id?: string }, value: unknown): ErrorDetail[] {
  let validate = bodyValidators.get(schema);
  // A named schema is known to Ajv already, and may not be added twice: refer to it.
  if (!validate) bodyValidators.set(schema, (validate = twoPass(bodyAjv, schema.$id ? { $ref: schema.$id } : schema)));
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
    case 'minItems':
      return { field: fieldPath(e.instancePath), reason: `must have at least ${String(p.limit)} items` };
    case 'maxItems':
      return { field: fieldPath(e.instancePath), reason: `must have at most ${String(p.limit)} items` };
    case 'maxProperties':
      return { field: fieldPath(e.instancePath), reason: `must have at most ${String(p.limit)} fields` };
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
