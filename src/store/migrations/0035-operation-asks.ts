import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * What an upgrade and a restore ask of a workspace move from the operation's parameters to
 * the workspace's desired state, beside `desired_size` and `desired_enable_ha`:
 * `upgrade_tg_version` (the version a running upgrade moves to) and `restore_backup_id` (the
 * backup a running restore brings back), both null while no operation asks for them.
 *
 * An update or restore in flight when this runs asked for them in its parameters only; they
 * are copied onto its workspace, so its next step asks the same. The parameters are JSON
 * text on either store, read here rather than in SQL, which would differ between them.
 */
const columns = [
  ['upgrade_tg_version', 'varchar(32)'],
  ['restore_backup_id', 'varchar(36)'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // One statement per column: SQLite adds one column per ALTER TABLE.
  for (const [name, type] of columns) await db.schema.alterTable('workspaces').addColumn(name, type).execute();
  const running: Array<{ resource_id: string; kind: string; params: string }> = await db
    .selectFrom('operations')
    .select(['resource_id', 'kind', 'params'])
    .where('kind', 'in', ['workspace.update', 'workspace.restore'])
    .where('state', 'in', ['pending', 'running'])
    .execute();
  for (const op of running) {
    const params = JSON.parse(op.params) as { tg_version?: unknown; backup_id?: unknown };
    const asked =
      op.kind === 'workspace.update'
        ? typeof params.tg_version === 'string' && { upgrade_tg_version: params.tg_version }
        : typeof params.backup_id === 'string' && { restore_backup_id: params.backup_id };
    if (asked) await db.updateTable('workspaces').set(asked).where('id', '=', op.resource_id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of [...columns].reverse()) await db.schema.alterTable('workspaces').dropColumn(name).execute();
}
