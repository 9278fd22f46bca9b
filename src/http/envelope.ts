import type { FastifyRequest } from 'fastify';
import { AppError, type ErrorDetail } from '../domain/errors.js';
import type { ErrorEnvelope, SuccessEnvelope } from '../schemas/envelope.js';
import { appErrorOf } from '../listener/app-errors.js';
import { errorCodes } from '../listener/error-codes.js';
import { validationDetails, type ValidationError } from './validation.js';

export function ok<T>(request: FastifyRequest, result: T, message = 'OK'): SuccessEnvelope<T> {
  return { Error: false, ErrorDetails: [], Message: message, RequestID: request.id, Result: result };
}

export interface RenderedError {
  status: number;
  body: ErrorEnvelope;
  /** Seconds for the Retry-After header, where the error has one. */
  retryAfter?: number;
}

/**
 * An answer lists at most this many ErrorDetails: the last of them, when there are more,
 * names the first field left out and how many problems are not listed. Enough to fix a body
 * by hand in one go; a client sending thousands of bad values learns of them without an
 * answer the size of its request.
 */
export const MAX_ERROR_DETAILS = 20;

function listed(details: readonly ErrorDetail[]): ErrorDetail[] {
  if (details.length <= MAX_ERROR_DETAILS) return [...details];
  const shown = details.slice(0, MAX_ERROR_DETAILS - 1);
  const more = details.length - shown.length;
  return [
    ...shown,
    {
      field: details[shown.length]!.field,
      reason: `has the first of ${more} more problems, not listed (an answer lists at most ${MAX_ERROR_DETAILS})`,
    },
  ];
}

export function renderAppError(err: AppError, requestId: string): RenderedError {
  const entry = errorCodes[err.code];
  return {
    status: entry.status,
    ...(entry.retryAfter !== undefined ? { retryAfter: entry.retryAfter } : {}),
    body: {
      Error: true,
      ErrorDetails: listed(err.details).map((d) => ({ FieldName: d.field, Reason: d.reason, Type: entry.type })),
      Message: entry.message,
      RequestID: requestId,
    },
  };
}

/**
 * Turns any thrown value into the error the API answers: a failed schema validation names
 * the fields, anything else is as on every listener (src/listener/app-errors.ts).
 */
export function toAppError(err: unknown): AppError {
  const e = err as { validation?: ValidationError[]; validationContext?: string } | undefined;
  if (e?.validation) return new AppError('invalid', validationDetails(e.validation, e.validationContext ?? 'body'));
  return appErrorOf(err);
}
