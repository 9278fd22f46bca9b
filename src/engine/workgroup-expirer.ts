import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import { enqueueDatabaseRemoval } from '../domain/database-operations.js';
import { beginWorkspaceOperation } from '../domain/workspace-operations.js';
import { stableStatuses } from '../schemas/vocabulary.js';
import { deleteDatabase, listDatabasesOfWorkgroups } from '../store/repositories/databases.js';
import {
  claimExpiry,
  deleteWorkgroup,
  dueExpiries,
  expiringWorkgroups,
  nextExpiryAt,
  type Workgroup,
} from '../store/repositories/workgroups.js';
import { listWorkspacesOfWorkgroups, type Workspace } from '../store/repositories/workspaces.js';
import type { Store, Tx } from '../store/store.js';

const BATCH = 50;
/** How long (engine clock) a workspace whose delete this process started is left to it before it is asked again. */
const RETRY_MS = 60_000;

/**
 * Removes workgroups whose `expires_at` has come (docs/workgroup-expiry.md). Starting an
 * expiry is a compare-and-set on the row (`expired_at`), so across processes exactly one
 * starts it, with its `workgroup.expired` event; from then on the workgroup takes no new
 * workspaces and no changes. Each pass then empties it through the normal paths: a delete
 * operation for each workspace in a stable status (read-only ones first, as a read-write
 * workspace is deleted only once nothing reads from its database), and once no workspace is
 * left its databases' removal and the workgroup's deletion, each with their usual events.
 * Every step is idempotent, so any process may take a pass.
 */
export class WorkgroupExpirer {
  /** Workspaces this process asked to delete, and when it may ask again (a failed delete leaves them Failed). */
  private readonly asked = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async tick(): Promise<number> {
    const now = this.clock.now();
    let done = 0;
    for (const wg of await dueExpiries(this.store.db, now, BATCH)) {
      const claimed = await this.store.transaction((tx) => claimExpiry(tx, wg, now));
      if (!claimed) continue;
      done++;
      this.logger.info({ workgroup: wg.id, expires_at: wg.expires_at }, 'workgroup expired; deleting what it holds');
    }
    for (const wg of await expiringWorkgroups(this.store.db, BATCH)) {
      done += await this.store.transaction((tx) => this.empty(tx, wg, now));
    }
    for (const [id, at] of this.asked) if (at <= now - RETRY_MS) this.asked.delete(id);
    return done;
  }

  /** One pass over an expiring workgroup: the deletes it can start now; 1 when it removed the workgroup. */
  private async empty(tx: Tx, wg: Workgroup, now: number): Promise<number> {
    const workspaces = await listWorkspacesOfWorkgroups(tx.db, [wg.id]);
    if (workspaces.length === 0) {
      for (const database of await listDatabasesOfWorkgroups(tx.db, [wg.id])) {
        await deleteDatabase(tx, database.id);
        await enqueueDatabaseRemoval(tx, database, now);
      }
      await deleteWorkgroup(tx, wg.id);
      this.logger.info({ workgroup: wg.id }, 'expired workgroup deleted');
      return 1;
    }
    let started = 0;
    for (const ws of workspaces) {
      if (!this.deletable(ws, workspaces, now)) continue;
      await beginWorkspaceOperation(tx, ws, { op: 'delete' }, now);
      this.asked.set(ws.id, now + RETRY_MS);
      started++;
    }
    return started;
  }

  /** Whether a delete may be started now: stable, not asked lately, and no reader left on its database. */
  private deletable(ws: Workspace, all: readonly Workspace[], now: number): boolean {
    if (!(stableStatuses as readonly string[]).includes(ws.status)) return false;
    if ((this.asked.get(ws.id) ?? -Infinity) > now) return false;
    return !ws.is_rw || !all.some((r) => !r.is_rw && r.database_id === ws.database_id);
  }

  /** The next instant something becomes due: an expiry, or a workspace this process may ask again. */
  async nextDueAt(after: number): Promise<number | undefined> {
    const times = [...this.asked.values()].filter((t) => t > after);
    const expiry = await nextExpiryAt(this.store.db, after);
    if (expiry !== undefined) times.push(expiry);
    return times.length ? Math.min(...times) : undefined;
  }
}
