import { Type, type Static } from '@sinclair/typebox';
import { Id, ListQuery, Timestamp } from './helpers.js';

/** An asynchronous operation of the engine (extension of the contract). */
export const OperationRecord = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  resource_type: Type.String(),
  resource_id: Type.String(),
  state: Type.String({ description: 'pending, running, succeeded or failed' }),
  attempt: Type.Integer(),
  max_attempts: Type.Integer(),
  params: Type.Record(Type.String(), Type.Unknown()),
  error: Type.Optional(Type.String()),
  run_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
  finished_at: Type.Optional(Timestamp),
});
export type OperationRecord = Static<typeof OperationRecord>;

export const OperationParams = Type.Object({ id: Id });
export const OperationsQuery = Type.Composite([ListQuery, Type.Object({ resource_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) })]);
