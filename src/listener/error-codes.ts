import type { ErrorCode } from '../domain/errors.js';
import type { ErrorDetail } from '../schemas/envelope.js';

type ErrorType = ErrorDetail['Type'];

/**
 * The one table from domain error codes to the envelope's Type and the HTTP status (DESIGN §3),
 * and the Retry-After (seconds) a client is told where retrying soon is the remedy.
 */
export const errorCodes: Record<ErrorCode, { type: ErrorType; status: number; message: string; retryAfter?: number }> =
  {
    invalid: { type: 'Bad-Request', status: 400, message: 'The request is not valid.' },
    conflict: { type: 'Bad-Request', status: 409, message: 'The resource is not in a state that allows this request.' },
    precondition: {
      type: 'Bad-Request',
      status: 412,
      message: 'The resource has changed since the version given in If-Match.',
    },
    'payload-too-large': { type: 'Bad-Request', status: 413, message: 'The request body is too large.' },
    'request-timeout': { type: 'Bad-Request', status: 408, message: 'The request was not received in time.' },
    'headers-too-large': { type: 'Bad-Request', status: 431, message: 'The request headers are too large.' },
    'unsupported-media-type': {
      type: 'Bad-Request',
      status: 415,
      message: 'The request body must be application/json.',
    },
    'method-not-allowed': { type: 'Bad-Request', status: 405, message: 'The method is not allowed on this path.' },
    unauthenticated: { type: 'Unauthorized', status: 401, message: 'Authentication failed.' },
    forbidden: { type: 'Forbidden', status: 403, message: 'The API key does not allow this request.' },
    'not-found': { type: 'Not-Found', status: 404, message: 'Not found.' },
    quota: { type: 'Quota-Exceed', status: 403, message: 'An organisation quota would be exceeded.' },
    'rate-limited': { type: 'Quota-Exceed', status: 429, message: 'Too many requests.' },
    disabled: {
      type: 'API-Disabled',
      status: 403,
      message: "This feature is not available on the organisation's tier.",
    },
    'not-configured': {
      type: 'API-Disabled',
      status: 501,
      message: 'This feature needs an outside service that is not configured here.',
    },
    delinquent: {
      type: 'Forbidden',
      status: 403,
      message: 'The organisation is out of credit.',
    },
    unavailable: { type: 'Internal-Error', status: 503, message: 'The service is unavailable.' },
    'pool-empty': {
      type: 'Internal-Error',
      status: 503,
      message: 'No pooled workgroup is ready; the pool is being refilled.',
      retryAfter: 5,
    },
    'store-unavailable': {
      type: 'Internal-Error',
      status: 503,
      message: 'The database is unreachable; retry later.',
      retryAfter: 1,
    },
    internal: { type: 'Internal-Error', status: 500, message: 'Internal error.' },
  };
