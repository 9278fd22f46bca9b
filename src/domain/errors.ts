import { isForeignKeyViolation } from '../store/store.js';
/**
 * Domain errors. A rule that fails throws an AppError carrying a code and one detail per
 * offending field; the HTTP layer maps the code to an envelope Type and status
 * (src/listener/error-codes.ts), so the domain never speaks HTTP.
 */
export type ErrorCode =
  | 'invalid' // input breaks a schema or rule
  | 'conflict' // the resource's current state forbids the change
  | 'precondition' // If-Match does not match version_number
  | 'payload-too-large'
  | 'request-timeout' // the client did not send its request in time
  | 'headers-too-large'
  | 'unsupported-media-type'
  | 'method-not-allowed'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'quota'
  | 'rate-limited'
  | 'disabled' // feature off for the organisation's tier
  | 'not-configured' // a seam to an outside service (payments, the assistant) whose setting is unset
  | 'delinquent' // the organisation is out of credit
  | 'unavailable'
  | 'pool-empty' // no pooled workgroup is ready to hand over; the engine is refilling
  | 'store-unavailable' // the database could not be reached, or the connection was lost mid-request
  | 'internal';

export interface ErrorDetail {
  field: string;
  reason: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];

  constructor(code: ErrorCode, details: ErrorDetail[] | ErrorDetail, message?: string) {
    const list = Array.isArray(details) ? details : [details];
    super(message ?? list.map((d) => (d.field ? `${d.field}: ${d.reason}` : d.reason)).join('; '));
    this.name = 'AppError';
    this.code = code;
    this.details = list;
  }
}

export const invalid = (field: string, reason: string) => new AppError('invalid', { field, reason });
export const conflict = (field: string, reason: string) => new AppError('conflict', { field, reason });
export const notFound = (field: string, reason: string) => new AppError('not-found', { field, reason });
export const forbidden = (field: string, reason: string) => new AppError('forbidden', { field, reason });

/** Collects rule violations so a request reports all of them together. */
export class Problems {
  private readonly list: ErrorDetail[] = [];

  add(field: string, reason: string): void {
    this.list.push({ field, reason });
  }

  throwIfAny(code: ErrorCode = 'invalid'): void {
    if (this.list.length > 0) throw new AppError(code, this.list);
  }
}

/**
 * A change the store refused because a row it refers to went, or a row referring to it came,
 * between the check and the write: a 409 naming the field, rethrowing anything else.
 */
export function refusedByReference(field: string, reason: string): (err: unknown) => never {
  return (err) => {
    if (isForeignKeyViolation(err)) throw conflict(field, reason);
    throw err;
  };
}
