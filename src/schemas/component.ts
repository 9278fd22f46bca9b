import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

const registry = new Map<string, TSchema>();

/**
 * A named schema: published once under `components.schemas` and referenced by `$ref`
 * wherever it is used. Validation (Ajv) and serialisation (fast-json-stringify) resolve the
 * same references, so a component may only be embedded through `Ref`, never inline (two
 * inline copies of one `$id` in a schema are ambiguous to Ajv).
 */
export function Component<T extends TSchema>(id: string, schema: T): T {
  if (registry.has(id)) throw new Error(`two schemas are named ${id}`);
  const named = Object.assign(schema, { $id: id });
  registry.set(id, named);
  return named;
}

/** A reference to a component, typed as the component itself. */
export function Ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  if (!schema.$id || registry.get(schema.$id) !== schema) throw new Error('Ref takes a schema made by Component');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

/** The schema itself, or a reference when it is a component. */
export function use<T extends TSchema>(schema: T): T | TUnsafe<Static<T>> {
  return schema.$id !== undefined && registry.get(schema.$id) === schema ? Ref(schema) : schema;
}

/** Every component declared so far, by name (complete once the endpoint table is loaded). */
export function components(): ReadonlyMap<string, TSchema> {
  return registry;
}
