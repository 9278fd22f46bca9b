import ipaddr from 'ipaddr.js';
import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Each allow-list entry keeps the first and last address of its range (bytes in network
 * order, and the family), so whether an address is in a workgroup's list is one indexed
 * question to the store instead of reading and parsing every entry: `is_current_ip_allowed`
 * of a page of workgroups costs the page, not the entries of its lists. Existing entries are
 * filled here from their (normalised) CIDR.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  // One column a statement: SQLite adds no more at once.
  await db.schema.alterTable('allow_list_entries').addColumn('range_family', 'integer').execute();
  await db.schema.alterTable('allow_list_entries').addColumn('range_first', bytes).execute();
  await db.schema.alterTable('allow_list_entries').addColumn('range_last', bytes).execute();
  const entries = await db.selectFrom('allow_list_entries').select(['id', 'cidr']).execute();
  for (const { id, cidr } of entries as Array<{ id: string; cidr: string }>) {
    const [addr, prefix] = ipaddr.parseCIDR(cidr);
    const text = `${addr.toString()}/${prefix}`;
    const v4 = addr.kind() === 'ipv4';
    const first = v4 ? ipaddr.IPv4.networkAddressFromCIDR(text) : ipaddr.IPv6.networkAddressFromCIDR(text);
    const last = v4 ? ipaddr.IPv4.broadcastAddressFromCIDR(text) : ipaddr.IPv6.broadcastAddressFromCIDR(text);
    await db
      .updateTable('allow_list_entries')
      .set({
        range_family: v4 ? 4 : 6,
        range_first: Buffer.from(first.toByteArray()),
        range_last: Buffer.from(last.toByteArray()),
      })
      .where('id', '=', id)
      .execute();
  }
  await db.schema
    .createIndex('allow_list_entries_ranges')
    .on('allow_list_entries')
    .columns(['workgroup_id', 'range_family', 'range_first'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('allow_list_entries_ranges').execute();
  for (const column of ['range_last', 'range_first', 'range_family'])
    await db.schema.alterTable('allow_list_entries').dropColumn(column).execute();
}
