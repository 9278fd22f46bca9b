import { Type, type Static } from '@sinclair/typebox';
import { Id, ListQuery, StringEnum, Timestamp } from './helpers.js';
import { Component } from './component.js';

export const resourceTypes = ['workspace', 'backup', 'cloud_provider'] as const;
export const operationStates = ['pending', 'running', 'succeeded', 'failed'] as const;

/** An asynchronous operation of the engine (extension of the contract). */
export const OperationRecord = Component(
  'OperationRecord',
  Type.Object(
    {
      id: Type.String(),
      kind: Type.String({
        description: 'what it does: workspace.<action>, backup.<action> or cloud_provider.<action>',
      }),
      resource_type: StringEnum(resourceTypes),
      resource_id: Type.String(),
      state: StringEnum(operationStates, { description: 'pending → running → succeeded, or failed (with error)' }),
      attempt: Type.Integer(),
      max_attempts: Type.Integer(),
      params: Type.Record(Type.String(), Type.Unknown()),
      error: Type.Optional(Type.String()),
      run_at: Timestamp,
      created_at: Timestamp,
      updated_at: Timestamp,
      finished_at: Type.Optional(Timestamp),
    },
    { description: 'An asynchronous change, run by the engine: follow it until succeeded or failed.' },
  ),
);
export type OperationRecord = Static<typeof OperationRecord>;

export const OperationParams = Type.Object({ id: Id });
export const OperationsQuery = Type.Composite([
  ListQuery,
  Type.Object({ resource_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }),
]);
