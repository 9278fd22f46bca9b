import type { FastifyRequest } from 'fastify';
import { AppError, type ErrorCode, type ErrorDetail } from '../domain/errors.js';
import { isConnectionLoss, isUncertainCommit } from '../store/store.js';
import type { ErrorEnvelope, SuccessEnvelope } from '../schemas/envelope.js';
import { errorCodes } from './error-codes.js';
import { MAX_PARAM_LENGTH } from './listener-limits.js';
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

/** Framework errors by Fastify code; anything unknown is an internal error. */
const frameworkErrors: Record<string, { code: ErrorCode; field: string; reason: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload-too-large', field: 'body', reason: 'exceeds the body size limit' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported-media-type',
    field: 'Content-Type',
    reason: 'must be application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid', field: 'Content-Length', reason: 'does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid',
    field: 'body',
    reason: 'is empty but Content-Type is application/json',
  },
  FST_ERR_BAD_URL: { code: 'invalid', field: 'path', reason: 'is not a valid URL' },
  FST_ERR_MAX_PARAM_LENGTH: {
    code: 'invalid',
    field: 'path',
    reason: `has a parameter longer than ${MAX_PARAM_LENGTH} characters`,
  },
};

/**
 * Turns any thrown value into an envelope: a lost database connection becomes a 503 (the
 * request may succeed when retried), other unknown errors a generic 500.
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isConnectionLoss(err)) {
    return new AppError('store-unavailable', {
      field: 'store',
      reason: isUncertainCommit(err)
        ? 'the connection to the database was lost as the request was committed: it ' +
          'may have been applied; read it back, or retry with the same Idempotency-Key'
        : 'the database is unreachable or the connection to it was lost; retry shortly',
    });
  }
  const e = err as {
    code?: string;
    validation?: ValidationError[];
    validationContext?: string;
    statusCode?: number;
    message?: string;
  };
  if (e?.validation) return new AppError('invalid', validationDetails(e.validation, e.validationContext ?? 'body'));
  const known = e?.code ? frameworkErrors[e.code] : undefined;
  if (known) return new AppError(known.code, { field: known.field, reason: known.reason });
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('invalid', { field: '', reason: e.message ?? 'bad request' });
  }
  return new AppError('internal', {
    field: '',
    reason: 'an internal error occurred; see the server log for the request ID',
  });
}
