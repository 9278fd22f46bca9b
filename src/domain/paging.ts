import { decodeCursor, type CursorPosition, type Page } from '../store/pagination.js';
import { invalid } from './errors.js';

/** The position a list resumes after; a cursor this service did not issue is refused. */
export function resumeAfter(page: Page): CursorPosition | undefined {
  if (page.cursor === undefined) return undefined;
  const after = decodeCursor(page.cursor);
  if (!after) throw invalid('cursor', 'is not a cursor this service issued');
  return after;
}
