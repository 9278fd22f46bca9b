import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Metering and credits. Money is in integer millionths of the currency unit (bigint).
 * - billing_accounts: an organisation's balance, and what it was ever granted (an
 *   organisation never granted credit is metered but never held to its balance).
 * - credit_ledger: every grant (positive) and charge (negative); a charge is one workspace's
 *   usage in one metered hour, unique per workspace and hour.
 * - metering_periods: the hours metered, keyed by their start: the one process whose insert
 *   of the key succeeds charges that hour, in the same transaction.
 * - metering_state: each workspace as the meter last saw it (running or not, size, HA,
 *   region, priced add-ons, stored bytes), carried from one hour to the next.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('billing_accounts')
    .addColumn('org_id', 'varchar(36)', (c) => c.primaryKey().references('organisations.id').onDelete('cascade'))
    .addColumn('balance_micros', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('granted_micros', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('charged_micros', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount_micros', 'bigint', (c) => c.notNull())
    .addColumn('workspace_id', 'varchar(36)')
    .addColumn('period_start', 'bigint')
    .addColumn('compute_micros', 'bigint')
    .addColumn('addon_micros', 'bigint')
    .addColumn('storage_micros', 'bigint')
    .addColumn('running_ms', 'bigint')
    .addColumn('note', 'varchar(256)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_ledger_org').on('credit_ledger').columns(['org_id', 'created_at']).execute();
  // Grants have no period: NULLs are distinct, so only charges are held to one per workspace and hour.
  await db.schema
    .createIndex('credit_ledger_charge_once')
    .on('credit_ledger')
    .columns(['workspace_id', 'period_start'])
    .unique()
    .execute();
  await db.schema
    .createTable('metering_periods')
    .addColumn('period_start', 'bigint', (c) => c.primaryKey())
    .addColumn('metered_at', 'bigint', (c) => c.notNull())
    .addColumn('owner', 'varchar(128)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('metering_state')
    .addColumn('workspace_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('running', 'integer', (c) => c.notNull())
    .addColumn('size', 'varchar(32)', (c) => c.notNull())
    .addColumn('enable_ha', 'integer', (c) => c.notNull())
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('region', 'varchar(64)', (c) => c.notNull())
    .addColumn('addons', 'varchar(1024)', (c) => c.notNull())
    .addColumn('storage_bytes', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['metering_state', 'metering_periods', 'credit_ledger', 'billing_accounts'])
    await db.schema.dropTable(table).execute();
}
