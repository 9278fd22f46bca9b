import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { Envelope, ErrorEnvelope, ErrorEnvelopeDeclaring } from '../schemas/envelope.js';
import type { PageResult } from '../store/pagination.js';

/** Response schemas of a route: the envelope around its Result, and the error envelope. */
export function replies<T extends TSchema>(result: T) {
  return { 200: Envelope(result), '4xx': ErrorEnvelope, '5xx': ErrorEnvelope };
}

/** As `replies`, for an operation whose seed spec declares a Result type on 400 and 500. */
export function repliesDeclaringErrorResult<T extends TSchema, E extends TSchema>(result: T, errorResult: E) {
  const declared = ErrorEnvelopeDeclaring(errorResult);
  return { ...replies(result), 400: declared, 500: declared };
}


/** Sends the page's items; the next cursor, if any, travels in X-Next-Cursor. */
export function pageItems<T>(reply: FastifyReply, page: PageResult<T>): T[] {
  if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
  return page.items;
}
