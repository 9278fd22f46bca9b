import { newId } from './ids.js';
import type { Tx } from '../store/store.js';
import { insertOperation } from '../store/repositories/operations.js';
import type { Database } from '../store/repositories/databases.js';

export const DATABASE_DELETE_KIND = 'database.delete';
/** Removing a deleted database's data is retried longer than a step someone waits on: leaking it costs storage. */
const REMOVE_ATTEMPTS = 5;

/** Enqueues the removal of a deleted database's graph data, in the transaction that deleted its row. */
export async function enqueueDatabaseRemoval(
  trx: Tx,
  database: Pick<Database, 'id' | 'org_id'>,
  now: number,
): Promise<void> {
  await insertOperation(trx, {
    id: newId(),
    org_id: database.org_id,
    resource_type: 'database',
    resource_id: database.id,
    kind: DATABASE_DELETE_KIND,
    params: {},
    max_attempts: REMOVE_ATTEMPTS,
    run_at: now,
    created_at: now,
  });
}
