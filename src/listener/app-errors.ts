import { AppError, type ErrorCode } from '../domain/errors.js';
import { isConnectionLoss, isUncertainCommit } from '../store/store.js';
import { MAX_PARAM_LENGTH } from './listener-limits.js';

/** Framework errors by Fastify code; anything unknown is an internal error. */
export const frameworkErrors: Record<string, { code: ErrorCode; field: string; reason: string }> = {
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

/** What an internal error tells the client: nothing of the error, where the log has it. */
export const INTERNAL_ERROR = {
  field: '',
  reason: 'an internal error occurred; see the server log for the request ID',
} as const;

/**
 * Any thrown value as the error a listener (the API, the gateway) answers: a lost database
 * connection becomes a 503 (the request may succeed when retried), a framework error its
 * 4xx, other unknown errors a generic 500. The API also names the fields a schema refused
 * (src/http/envelope.ts).
 */
export function appErrorOf(err: unknown): AppError {
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
  const e = err as { code?: string; statusCode?: number; message?: string } | undefined;
  const known = e?.code ? frameworkErrors[e.code] : undefined;
  if (known) return new AppError(known.code, { field: known.field, reason: known.reason });
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('invalid', { field: '', reason: e.message ?? 'bad request' });
  }
  return new AppError('internal', INTERNAL_ERROR);
}
