import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { StringEnum } from './helpers.js';
import { Component, Ref } from './component.js';

/** The path prefix of every API route (part of the contract). */
export const API_PREFIX = '/controller/v4/v2';

export const errorTypes = [
  'Internal-Error',
  'Bad-Request',
  'Not-Found',
  'Forbidden',
  'Unauthorized',
  'API-Disabled',
  'Quota-Exceed',
  'Unknown',
] as const;

export const ErrorDetail = Component(
  'ErrorDetail',
  Type.Object(
    {
      FieldName: Type.String({
        description: 'the field, parameter or header at fault, as a JSON path (`addons[1].addons_id`)',
      }),
      Reason: Type.String({ description: 'what is wrong with it, and what would be accepted' }),
      Type: StringEnum(errorTypes, { description: 'the kind of error; it decides the HTTP status' }),
    },
    {
      description: 'One problem with a request.',
      examples: [{ FieldName: 'cloud_provider_id', Reason: 'is required', Type: 'Bad-Request' }],
    },
  ),
);
export type ErrorDetail = Static<typeof ErrorDetail>;

/** The envelope of every successful response, around the endpoint's Result. */
export function Envelope<T extends TSchema>(result: T) {
  return Type.Object({
    Error: Type.Literal(false),
    ErrorDetails: Type.Array(Ref(ErrorDetail), { maxItems: 0 }),
    Message: Type.String(),
    RequestID: Type.String({ description: 'the X-Request-ID sent, or a new UUID; echoed in X-Request-ID' }),
    Result: result,
  });
}

/** The envelope of every error response: at least one detail, no Result. */
export const ErrorEnvelope = Component(
  'ErrorEnvelope',
  Type.Object(
    {
      Error: Type.Literal(true),
      ErrorDetails: Type.Array(Ref(ErrorDetail), { minItems: 1 }),
      Message: Type.String({ description: 'a summary of the error kind' }),
      RequestID: Type.String({ description: 'the X-Request-ID sent, or a new UUID; the server log has the same' }),
    },
    {
      description: 'Every error: one ErrorDetails entry per problem found, and no Result.',
      examples: [
        {
          Error: true,
          ErrorDetails: [{ FieldName: 'cloud_provider_id', Reason: 'is required', Type: 'Bad-Request' }],
          Message: 'The request is not valid.',
          RequestID: '5f0c2b7e-3d1a-4c8e-9b6f-2a7d4e1c9b30',
        },
      ],
    },
  ),
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

export interface SuccessEnvelope<T> {
  Error: false;
  ErrorDetails: [];
  Message: string;
  RequestID: string;
  Result: T;
}
