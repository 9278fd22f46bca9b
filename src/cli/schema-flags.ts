import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { TSchema } from '@sinclair/typebox';
import { components } from '../schemas/component.js';
import { UsageError } from './exit-codes.js';

/** One field of a request schema (a body or a query) and the flag that carries it. */
export interface FieldFlag {
  field: string;
  flag: string;
  /** Commander's key for the flag's value. */
  key: string;
  required: boolean;
}

/** The schema a `$ref` names, or the schema itself. */
export function resolveRef(schema: TSchema): TSchema {
  const ref = (schema as { $ref?: string }).$ref;
  if (!ref) return schema;
  const named = components().get(ref);
  if (!named) throw new Error(`no schema named ${ref}`);
  return named;
}

const kebab = (field: string) => field.replace(/_/g, '-');
const camel = (flag: string) => flag.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** How a flag's text becomes the field's JSON value, chosen from the field's schema. */
type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'list' | 'json';

function kindOf(schema: TSchema): Kind {
  const s = resolveRef(schema) as { type?: string; items?: TSchema; anyOf?: TSchema[] };
  if (s.anyOf) {
    // A value or null (an optional expiry): the value's kind; "null" is taken as JSON null.
    const others = s.anyOf.filter((x) => (x as { type?: string }).type !== 'null');
    return others.length === 1 ? kindOf(others[0]!) : 'json';
  }
  if (s.type === 'string' || s.type === 'integer' || s.type === 'number' || s.type === 'boolean') return s.type;
  if (s.type === 'array') {
    const items = resolveRef(s.items!) as { type?: string };
    return items.type === 'string' ? 'list' : 'json';
  }
  return 'json';
}

/**
 * What a nullable flag given `null` holds until `valuesOf` makes it JSON null: Commander turns a
 * parser's null into an empty string.
 */
const NULL = Symbol('null');

function parserFor(kind: Kind, flag: string, nullable: boolean): ((raw: string) => unknown) | undefined {
  const orNull = (parse: (raw: string) => unknown) => (raw: string) => (nullable && raw === 'null' ? NULL : parse(raw));
  switch (kind) {
    case 'integer':
    case 'number':
      return orNull((raw) => {
        const n = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`--${flag} takes a number`);
        return n;
      });
    case 'list':
      return (raw) =>
        raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
    case 'json':
      return (raw) => {
        try {
          return JSON.parse(raw);
        } catch {
          // A field that is an object or a string (an add-on's configuration) takes plain text too.
          return raw;
        }
      };
    case 'string':
      return nullable ? orNull((raw) => raw) : undefined;
    default:
      return undefined;
  }
}

const hints: Record<Kind, string> = {
  string: '',
  integer: ' (integer)',
  number: ' (number)',
  boolean: '',
  list: ' (comma-separated)',
  json: ' (JSON)',
};

/**
 * Adds a flag for every property of an object schema (a request body or a query), named after
 * the field (`workspace_type_name` → `--workspace-type-name`), typed and described as the
 * schema says. The API judges the values: the flags only shape them into JSON.
 */
export function addSchemaFlags(cmd: Command, schema: TSchema, skip: readonly string[] = []): FieldFlag[] {
  const object = resolveRef(schema) as { properties?: Record<string, TSchema>; required?: string[] };
  const flags: FieldFlag[] = [];
  for (const [field, property] of Object.entries(object.properties ?? {})) {
    if (skip.includes(field)) continue;
    const flag = kebab(field);
    const resolved = resolveRef(property) as TSchema & { description?: string; enum?: string[]; anyOf?: TSchema[] };
    const kind = kindOf(property);
    const required = (object.required ?? []).includes(field);
    const what = resolved.description ?? field.replace(/_/g, ' ');
    const description = `${what}${hints[kind]}${required ? ' (required)' : ''}`;
    if (kind === 'boolean') {
      cmd.addOption(new Option(`--${flag}`, description));
      cmd.addOption(new Option(`--no-${flag}`, `sets ${field} to false`).hideHelp());
    } else {
      const nullable = !!resolved.anyOf?.some((x) => (x as { type?: string }).type === 'null');
      const option = new Option(`--${flag} <${kind === 'json' ? 'json' : 'value'}>`, description);
      if (resolved.enum) option.choices(resolved.enum);
      const parse = parserFor(kind, flag, nullable);
      if (parse) option.argParser(parse);
      cmd.addOption(option);
    }
    flags.push({ field, flag: `--${flag}`, key: camel(flag), required });
  }
  return flags;
}

/** The JSON object the flags given make, over `--body` when given (a flag wins over the same field there). */
export function valuesOf(flags: readonly FieldFlag[], opts: Record<string, unknown>, base: unknown = {}): object {
  const values: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const f of flags) if (opts[f.key] !== undefined) values[f.field] = opts[f.key] === NULL ? null : opts[f.key];
  return values;
}

/** `--body '{"…"}'`, `--body @file.json` or `--body -` (standard input): a JSON object. */
export function readBody(text: string | undefined): object {
  if (text === undefined) return {};
  const source =
    text === '-' ? readFileSync(0, 'utf8') : text.startsWith('@') ? readFileSync(text.slice(1), 'utf8') : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (err) {
    throw new UsageError(`--body is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('--body must be a JSON object');
  return value;
}
