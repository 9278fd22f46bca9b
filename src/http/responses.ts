import type { FastifyReply } from 'fastify';
import type { PageResult } from '../store/pagination.js';

/** Sends the page's items; the next cursor, if any, travels in X-Next-Cursor. */
export function pageItems<T>(reply: FastifyReply, page: PageResult<T>): T[] {
  if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
  return page.items;
}
