import type { Selectable } from 'kysely';
import type { AddonRequestsTable } from '../schema.js';
import type { Executor } from '../store.js';
import type { Tx } from '../unit-of-work.js';
import { countRows } from '../count-rows.js';
import { keyset, toPage, type CursorPosition, type PageResult } from '../pagination.js';

export type AddonRequest = Selectable<AddonRequestsTable>;

export async function insertAddonRequest(tx: Tx, request: AddonRequest): Promise<void> {
  await tx.db.insertInto('addon_requests').values(request).execute();
  tx.noteChange({ kind: 'addon_request', id: request.id, orgId: request.org_id, change: 'created' });
}

export async function findAddonRequestById(db: Executor, id: string): Promise<AddonRequest | undefined> {
  return db.selectFrom('addon_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organisation's requests, oldest first, a page at a time. */
export async function listAddonRequests(
  db: Executor,
  orgId: string,
  limit: number | undefined,
  after: CursorPosition | undefined,
): Promise<PageResult<AddonRequest>> {
  const rows = await keyset(
    db.selectFrom('addon_requests').selectAll().where('org_id', '=', orgId),
    limit,
    after,
  ).execute();
  return toPage(rows, limit);
}

export async function countAddonRequests(db: Executor, orgId: string): Promise<number> {
  return countRows(db.selectFrom('addon_requests').where('org_id', '=', orgId));
}
