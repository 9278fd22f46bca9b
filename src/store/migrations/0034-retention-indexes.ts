import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * The engine prunes finished operations and past schedule runs once a minute: by the time
 * they finished or fired, keeping the operations a Failed workspace or a kept run still
 * names. Each of those questions goes through an index rather than the whole table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('operations_finished').on('operations').column('finished_at').execute();
  await db.schema.createIndex('schedule_runs_fired').on('schedule_runs').column('fired_at').execute();
  await db.schema.createIndex('schedule_runs_operation').on('schedule_runs').column('operation_id').execute();
  await db.schema.createIndex('workspaces_failed_operation').on('workspaces').column('failed_operation_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'workspaces_failed_operation',
    'schedule_runs_operation',
    'schedule_runs_fired',
    'operations_finished',
  ])
    await db.schema.dropIndex(index).execute();
}
