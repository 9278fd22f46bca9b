import type { Selectable } from 'kysely';
import type { ChaosRulesTable } from '../schema.js';
import type { Executor, Tx } from '../store.js';

export type ChaosRuleRow = Omit<Selectable<ChaosRulesTable>, 'hits'> & { hits: number };

const decode = (row: Selectable<ChaosRulesTable>): ChaosRuleRow => ({ ...row, hits: Number(row.hits) });

export async function insertChaosRule(tx: Tx, rule: Omit<ChaosRuleRow, 'hits'>): Promise<void> {
  await tx.db.insertInto('chaos_rules').values(rule).execute();
}

/** The organisation's rules still in force at `now`. */
export async function countLiveChaosRules(db: Executor, orgId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('chaos_rules')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', orgId)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every organisation's rules in force at `now`, oldest first: what a process applies. */
export async function listLiveChaosRules(db: Executor, now: number, orgId?: string): Promise<ChaosRuleRow[]> {
  let query = db.selectFrom('chaos_rules').selectAll().where('expires_at', '>', now);
  if (orgId !== undefined) query = query.where('org_id', '=', orgId);
  return (await query.orderBy('created_at').orderBy('id').execute()).map(decode);
}

export async function findChaosRule(db: Executor, orgId: string, id: string): Promise<ChaosRuleRow | undefined> {
  const row = await db
    .selectFrom('chaos_rules')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && decode(row);
}

export async function deleteChaosRules(tx: Tx, orgId: string, id?: string): Promise<void> {
  let query = tx.db.deleteFrom('chaos_rules').where('org_id', '=', orgId);
  if (id !== undefined) query = query.where('id', '=', id);
  await query.execute();
}

/** Removes rules that ended before `now` (their ending needs no write: reads filter by time). */
export async function deleteExpiredChaosRules(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('chaos_rules').where('expires_at', '<=', now).execute();
}

/** Counts one match of the rule; the count after it, or undefined when the rule is gone. */
export async function countChaosHit(tx: Tx, id: string): Promise<number | undefined> {
  const row = await tx.db
    .updateTable('chaos_rules')
    .set((eb) => ({ hits: eb('hits', '+', 1) }))
    .where('id', '=', id)
    .returning('hits')
    .executeTakeFirst();
  return row && Number(row.hits);
}

/**
 * What tells a process that the rule set changed in another process: how many rules there
 * are and the newest id (ids grow with time), one indexed read.
 */
export async function chaosRulesFingerprint(db: Executor): Promise<string> {
  const row = await db
    .selectFrom('chaos_rules')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('id').as('newest')])
    .executeTakeFirstOrThrow();
  return `${Number(row.n)}:${row.newest ?? ''}`;
}

/** The organisation, platform and region of a workspace's workgroup. */
export async function workspacePlacement(
  db: Executor,
  workspaceId: string,
): Promise<{ org_id: string; platform: string; region: string } | undefined> {
  return db
    .selectFrom('workspaces as w')
    .innerJoin('workgroups as g', 'g.id', 'w.workgroup_id')
    .select(['g.org_id', 'g.platform', 'g.region'])
    .where('w.id', '=', workspaceId)
    .executeTakeFirst();
}
