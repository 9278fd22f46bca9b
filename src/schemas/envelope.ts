import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { StringEnum } from './helpers.js';

/** The path prefix of every API route (part of the contract). */
export const API_PREFIX = '/controller/v4/v2';

export const errorTypes = ['Internal-Error', 'Bad-Request', 'Not-Found', 'Forbidden', 'Unauthorized', 'API-Disabled', 'Quota-Exceed', 'Unknown'] as const;

export const ErrorDetail = Type.Object({
  FieldName: Type.String(),
  Reason: Type.String(),
  Type: StringEnum(errorTypes),
});
export type ErrorDetail = Static<typeof ErrorDetail>;

/** The envelope of every successful response, around the operation's Result. */
export function Envelope<T extends TSchema>(result: T) {
  return Type.Object({
    Error: Type.Boolean(),
    ErrorDetails: Type.Array(ErrorDetail),
    Message: Type.String(),
    RequestID: Type.String(),
    Result: result,
  });
}

/** The envelope of every error response: at least one detail, no Result. */
export const ErrorEnvelope = Type.Object({
  Error: Type.Boolean(),
  ErrorDetails: Type.Array(ErrorDetail, { minItems: 1 }),
  Message: Type.String(),
  RequestID: Type.String(),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/**
 * The error envelope of an operation whose seed spec declares a Result type for its error
 * statuses (operations 8, 11 and 12). The type is published; no error carries a Result.
 */
export function ErrorEnvelopeDeclaring<T extends TSchema>(result: T) {
  return Type.Composite([ErrorEnvelope, Type.Object({ Result: Type.Optional(result) })]);
}

export interface SuccessEnvelope<T> {
  Error: false;
  ErrorDetails: [];
  Message: string;
  RequestID: string;
  Result: T;
}
