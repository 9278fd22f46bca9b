import { sql } from 'kysely';
import type { Executor } from '../store.js';
import { backupExpiresAt } from './backups.js';
import { autoStopAt, autoStopping } from './workspaces.js';

/**
 * The earliest instant at which any of the engine's row-driven work is due, past or future,
 * in one statement of indexed minimums: pending operations and expired leases (worker),
 * schedule and backup-schedule firings, automatic backups' expiry (schedulers), maintenance
 * and auto-stop (reconciler), pending webhook deliveries and their expired leases (deliverer:
 * a claimed delivery's next_attempt_at is its lease's end), workgroups' expiry and those being
 * emptied (expirer: due until they are gone). Each term is the same condition the part's own
 * due query uses, so a time at or before now means that part has work;
 * undefined means nothing is waiting.
 */
export async function earliestDueAt(db: Executor): Promise<number | undefined> {
  const { rows } = await sql<{ at: number | string | null }>`
    select min(t) as at from (
      select min(run_at) as t from operations where state = 'pending'
      union all select min(lease_expires_at) from operations where state = 'running'
      union all select min(next_run_at) from schedules
      union all select min(next_run_at) from backup_schedules where pause = 0
      union all select min(${backupExpiresAt}) from backups b
        join backup_schedules s on s.workspace_id = b.workspace_id
        where b.is_automatic = 1 and b.status = 'Succeeded'
      union all select min(maintenance_due_at) from workspaces
      union all select min(${autoStopAt}) from workspaces where ${autoStopping}
      union all select min(next_attempt_at) from webhook_deliveries where state = 'pending'
      union all select min(expires_at) from workgroups where expired_at is null
      union all select min(expired_at) from workgroups
    ) due`.execute(db);
  const at = rows[0]?.at;
  return at === null || at === undefined ? undefined : Number(at);
}
