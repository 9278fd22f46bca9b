import { v7 as uuidv7 } from 'uuid';

/**
 * New resource ids are UUIDv7: time-ordered, so lists sorted by (created_at, id) keep
 * creation order even when timestamps tie (a manual clock that has not moved), and
 * PostgreSQL's indexes stay compact.
 */
export const newId = (): string => uuidv7();
