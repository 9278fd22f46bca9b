import { Type, type TSchema, type SchemaOptions, type TUnsafe } from '@sinclair/typebox';

/** A string limited to the given values; renders as a JSON Schema `enum` (clear errors, clean OpenAPI). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** Request bodies are strict: unknown fields are refused, not dropped. */
export function Body<T extends Parameters<typeof Type.Object>[0]>(properties: T, options: SchemaOptions = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** A resource name; the domain applies the rest of the rule (src/domain/names.ts). */
export const Name = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    '1–64 characters, stored in Unicode NFC; no control, line-separator or bidirectional formatting characters',
});
export const Timestamp = Type.String({ description: 'RFC 3339 timestamp in UTC' });
export const Id = Type.String({ minLength: 1, maxLength: 128 });

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** `?limit=&cursor=` of every list route; X-Next-Cursor carries the next cursor. */
export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
});
