import { Type, type Static } from '@sinclair/typebox';
import { Body, Name, StringEnum, Timestamp } from './helpers.js';
import { roles } from '../domain/principal.js';

export const ApiKeyRecord = Type.Object({
  key_name: Type.String(),
  description: Type.Optional(Type.String()),
  role: StringEnum(roles),
  workgroup_ids: Type.Array(Type.String()),
  workspace_ids: Type.Array(Type.String()),
  redacted_key: Type.String(),
  created_by: Type.Optional(Type.String()),
  created_at: Timestamp,
  expires_at: Type.Optional(Timestamp),
  plaintext_key: Type.Optional(Type.String({ description: 'the key itself; returned once, by the create call only' })),
});
export type ApiKeyRecord = Static<typeof ApiKeyRecord>;

const IdList = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, uniqueItems: true });

export const CreateApiKeyBody = Body({
  key_name: Name,
  description: Type.Optional(Type.String({ maxLength: 256 })),
  role: StringEnum(roles),
  workgroup_ids: Type.Optional(IdList),
  workspace_ids: Type.Optional(IdList),
  life_time_in_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 10 * 365 * 24 * 3600 })),
});
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const ApiKeyParams = Type.Object({ key_name: Type.String({ minLength: 1, maxLength: 64 }) });
