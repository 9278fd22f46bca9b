import { CompiledQuery, sql, type Selectable } from 'kysely';
import type { DatabasesTable } from '../schema.js';
import { dialectOf, type DialectName } from '../dialect-of.js';
import type { Executor } from '../store.js';
import type { AllowListEntry } from './allow-list.js';
import { providerFromRow, type CloudProviderRow } from './cloud-providers.js';
import type { Database } from './databases.js';
import { workgroupFromRow, type Workgroup } from './workgroups.js';
import { workspaceFromRow, type Workspace } from './workspaces.js';
import { workspaceModel } from '../models/workspace.js';

/**
 * The reads behind a workgroup's or a workspace's record, each one statement: the rows it
 * embeds come back as JSON built by the store (row_to_json / json_agg on PostgreSQL,
 * json_object / json_group_array on SQLite) and go through the repositories' own row mappers,
 * so the records are built from exactly what separate queries would have returned. The SQL
 * text is fixed per dialect and compiled once.
 */

type Table = 'workgroups' | 'workspaces' | 'databases' | 'cloud_providers';

/** A workgroup with what its record embeds. */
export interface WorkgroupRows {
  workgroup: Workgroup;
  provider: CloudProviderRow | undefined;
  databases: Database[];
  workspaces: Workspace[];
  /**
   * Whether the caller the view was read for passes the workgroup's allow list: always while
   * the list is disabled; false when no caller was named and the list is enabled.
   */
  callerAllowed: boolean;
  /** Sum of Succeeded backups' sizes by database id. */
  backupSizes: Map<string, number>;
}

/** One workspace with what its record embeds: its database and the workspaces sharing it. */
export interface WorkspaceRows {
  workgroup: Workgroup;
  provider: CloudProviderRow | undefined;
  /** Undefined when the workgroup has no such workspace. */
  workspace: Workspace | undefined;
  database: Database | undefined;
  siblings: Workspace[];
  backupSize: number;
}

/**
 * SQLite has no row_to_json: json_object names every column, as a declared table's model
 * names them (src/store/models), or read once from the schema.
 */
const sqliteColumns = new Map<Table, readonly string[]>([[workspaceModel.table, workspaceModel.columns]]);

async function columnsOf(db: Executor, table: Table): Promise<readonly string[]> {
  let columns = sqliteColumns.get(table);
  if (!columns) {
    const rows = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
    columns = rows.rows.map((r) => r.name);
    sqliteColumns.set(table, columns);
  }
  return columns;
}

/** The JSON expressions of one dialect. */
interface JsonSql {
  row(table: Table, alias: string): string;
  /** The rows as a JSON array in creation order (an empty array when none). */
  array(table: Table, alias: string): string;
  /** The rows of a subquery `alias` selecting exactly `columns`, as `array` does. */
  columnsArray(columns: readonly string[], alias: string): string;
  /** key → value pairs of a subquery as one JSON object. */
  object(key: string, value: string): string;
  /** The placeholder of the n-th parameter (1-based). */
  param(n: number): string;
  /** `column` is one of the ids in the n-th parameter. */
  inList(column: string, n: number): string;
  /** The n-th parameter as bytes (bytea, blob). */
  bytes(n: number): string;
}

async function jsonSql(db: Executor, dialect: DialectName, tables: readonly Table[]): Promise<JsonSql> {
  if (dialect === 'postgres') {
    return {
      row: (_table, alias) => `row_to_json(${alias})`,
      array: (_table, alias) => `coalesce(json_agg(${alias} order by ${alias}.created_at, ${alias}.id), '[]'::json)`,
      columnsArray: (_columns, alias) =>
        `coalesce(json_agg(${alias} order by ${alias}.created_at, ${alias}.id), '[]'::json)`,
      object: (key, value) => `json_object_agg(${key}, ${value})`,
      param: (n) => `$${n}`,
      inList: (column, n) => `${column} = any($${n}::varchar[])`,
      bytes: (n) => `$${n}::bytea`,
    };
  }
  const columns = new Map<Table, readonly string[]>();
  for (const table of tables) columns.set(table, await columnsOf(db, table));
  const object = (names: readonly string[], alias: string) =>
    `json_object(${names.map((c) => `'${c}', ${alias}."${c}"`).join(', ')})`;
  const row = (table: Table, alias: string) => object(columns.get(table)!, alias);
  const ordered = (value: string, alias: string) =>
    `json_group_array(${value} order by ${alias}.created_at, ${alias}.id)`;
  return {
    row,
    array: (table, alias) => ordered(row(table, alias), alias),
    columnsArray: (names, alias) => ordered(object(names, alias), alias),
    object: (key, value) => `json_group_object(${key}, ${value})`,
    param: () => '?',
    inList: (column) => `${column} in (select value from json_each(?))`,
    bytes: () => '?',
  };
}

/** PostgreSQL hands JSON back parsed; SQLite as text. */
const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

function databaseFromRow(row: Selectable<DatabasesTable>): Database {
  const { name_key: _nameKey, ...rest } = row;
  return rest;
}

const WORKSPACE_TABLES = ['workgroups', 'cloud_providers', 'workspaces', 'databases'] as const;

function workspaceViewSql(j: JsonSql): string {
  return `/* prepared:acacia_workspace_view */ select ${j.row('workgroups', 'g')} as workgroup,
  (select ${j.row('cloud_providers', 'p')} from cloud_providers p where p.id = g.cloud_provider_id) as provider,
  case when w.id is null then null else ${j.row('workspaces', 'w')} end as workspace,
  (select ${j.row('databases', 'd')} from databases d where d.id = w.database_id) as database,
  (select ${j.array('workspaces', 's')} from workspaces s where s.database_id = w.database_id) as siblings,
  (select coalesce(sum(b.size_bytes), 0) from backups b
    where b.database_id = w.database_id and b.status = 'Succeeded') as backup_size
from workgroups g left join workspaces w on w.id = ${j.param(1)} and w.workgroup_id = g.id
where g.org_id = ${j.param(2)} and g.id = ${j.param(3)}`;
}

const WORKGROUP_TABLES = ['workgroups', 'cloud_providers', 'workspaces', 'databases'] as const;

/**
 * Parameters in the order the text names them (SQLite's are positional): the caller's family,
 * address and the time (1–3), the organisation (4), the workgroup ids (5). Whether the caller
 * passes an enabled list is asked of the entries' bounds through their index (migration 0033),
 * the rule of `checkAddress` (src/domain/allow-list-rules.ts): an entry in force whose range
 * has the caller's family and holds its address.
 */
function workgroupViewsSql(j: JsonSql): string {
  return `/* prepared:acacia_workgroup_views */ with caller as (
  select cast(${j.param(1)} as integer) as family, ${j.bytes(2)} as address, cast(${j.param(3)} as bigint) as now)
select ${j.row('workgroups', 'g')} as workgroup,
  (select ${j.row('cloud_providers', 'p')} from cloud_providers p where p.id = g.cloud_provider_id) as provider,
  (select ${j.array('databases', 'd')} from databases d where d.workgroup_id = g.id) as databases,
  (select ${j.array('workspaces', 'w')} from workspaces w where w.workgroup_id = g.id) as workspaces,
  case when g.enable_allow_list = 0 then 1
    when exists (select 1 from allow_list_entries e, caller c
      where e.workgroup_id = g.id and e.range_family = c.family
        and e.range_first <= c.address and e.range_last >= c.address
        and (e.expires_at is null or e.expires_at > c.now)) then 1
    else 0 end as caller_allowed,
  (select ${j.object('x.database_id', 'x.total')} from (
    select b.database_id, sum(b.size_bytes) as total from backups b join databases bd on bd.id = b.database_id
    where bd.workgroup_id = g.id and b.status = 'Succeeded' group by b.database_id) x) as backup_sizes
from workgroups g
where g.org_id = ${j.param(4)} and ${j.inList('g.id', 5)}`;
}

/** What an allow-list entry's record shows, and its order. */
const ENTRY_COLUMNS = ['id', 'cidr', 'note', 'expires_at', 'created_at'] as const;

function allowListViewSql(j: JsonSql): string {
  return `/* prepared:acacia_allow_list_view */ select (select ${j.columnsArray(ENTRY_COLUMNS, 'x')} from (
    select ${ENTRY_COLUMNS.map((c) => `e.${c}`).join(', ')} from allow_list_entries e
    where e.workgroup_id = g.id and (e.expires_at is null or e.expires_at > ${j.param(1)})) x) as entries
from workgroups g
where g.org_id = ${j.param(2)} and g.id = ${j.param(3)}`;
}

const VIEWS = {
  workspace: { tables: WORKSPACE_TABLES, text: workspaceViewSql },
  workgroups: { tables: WORKGROUP_TABLES, text: workgroupViewsSql },
  allowList: { tables: [], text: allowListViewSql },
} as const;

/** The statement of each view, per dialect, built on first use. */
const texts = new Map<string, Promise<string>>();

function textOf(db: Executor, view: keyof typeof VIEWS): Promise<string> {
  const dialect = dialectOf(db);
  const key = `${view}:${dialect}`;
  let text = texts.get(key);
  if (!text) {
    text = jsonSql(db, dialect, VIEWS[view].tables).then(VIEWS[view].text);
    // A failed build (the store went away meanwhile) is tried again by the next read.
    text.catch(() => texts.delete(key));
    texts.set(key, text);
  }
  return text;
}

interface WorkspaceViewRow {
  workgroup: unknown;
  provider: unknown;
  workspace: unknown;
  database: unknown;
  siblings: unknown;
  backup_size: number | string;
}

/** A workspace of a workgroup of the organisation, with what its record embeds; undefined without the workgroup. */
export async function findWorkspaceRows(
  db: Executor,
  orgId: string,
  workgroupId: string,
  workspaceId: string,
): Promise<WorkspaceRows | undefined> {
  const text = await textOf(db, 'workspace');
  const { rows } = await db.executeQuery<WorkspaceViewRow>(CompiledQuery.raw(text, [workspaceId, orgId, workgroupId]));
  const row = rows[0];
  if (!row) return undefined;
  const provider = parsed<Parameters<typeof providerFromRow>[0] | null>(row.provider);
  const workspace = parsed<Parameters<typeof workspaceFromRow>[0] | null>(row.workspace);
  const database = parsed<Selectable<DatabasesTable> | null>(row.database);
  return {
    workgroup: workgroupFromRow(parsed(row.workgroup)),
    provider: provider ? providerFromRow(provider) : undefined,
    workspace: workspace ? workspaceFromRow(workspace) : undefined,
    database: database ? databaseFromRow(database) : undefined,
    siblings: parsed<Array<Parameters<typeof workspaceFromRow>[0]>>(row.siblings ?? '[]').map(workspaceFromRow),
    backupSize: Number(row.backup_size),
  };
}

interface WorkgroupViewRow {
  workgroup: unknown;
  provider: unknown;
  databases: unknown;
  workspaces: unknown;
  caller_allowed: number | string;
  backup_sizes: unknown;
}

/** Who a view is read for: an address (`StoredAddress` of src/addresses/cidr.ts) at a time. */
export interface ViewCaller {
  family: number;
  address: Buffer;
  now: number;
}

/**
 * Workgroups of the organisation with what their records embed, in the order of `ids`
 * (missing ones left out); `caller` is who `callerAllowed` is decided for.
 */
export async function findWorkgroupRows(
  db: Executor,
  orgId: string,
  ids: readonly string[],
  caller?: ViewCaller,
): Promise<WorkgroupRows[]> {
  if (ids.length === 0) return [];
  const text = await textOf(db, 'workgroups');
  const list = dialectOf(db) === 'postgres' ? [...ids] : JSON.stringify(ids);
  const who = [caller?.family ?? null, caller?.address ?? null, caller?.now ?? null];
  const { rows } = await db.executeQuery<WorkgroupViewRow>(CompiledQuery.raw(text, [...who, orgId, list]));
  const byId = new Map<string, WorkgroupRows>();
  for (const row of rows) {
    const provider = parsed<Parameters<typeof providerFromRow>[0] | null>(row.provider);
    const sizes = parsed<Record<string, number | string> | null>(row.backup_sizes) ?? {};
    const workgroup = workgroupFromRow(parsed(row.workgroup));
    byId.set(workgroup.id, {
      workgroup,
      provider: provider ? providerFromRow(provider) : undefined,
      databases: parsed<Array<Selectable<DatabasesTable>>>(row.databases).map(databaseFromRow),
      workspaces: parsed<Array<Parameters<typeof workspaceFromRow>[0]>>(row.workspaces).map(workspaceFromRow),
      callerAllowed: Number(row.caller_allowed) === 1,
      backupSizes: new Map(Object.entries(sizes).map(([id, total]) => [id, Number(total)])),
    });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** An allow-list entry as its record shows it. */
export type AllowListEntryView = Pick<AllowListEntry, (typeof ENTRY_COLUMNS)[number]>;

/**
 * The entries in force at `now` of a workgroup of the organisation, in creation order, with
 * only the columns their records show; undefined without the workgroup. One statement.
 */
export async function findAllowList(
  db: Executor,
  orgId: string,
  workgroupId: string,
  now: number,
): Promise<AllowListEntryView[] | undefined> {
  const text = await textOf(db, 'allowList');
  const { rows } = await db.executeQuery<{ entries: unknown }>(CompiledQuery.raw(text, [now, orgId, workgroupId]));
  const row = rows[0];
  return row && parsed<AllowListEntryView[]>(row.entries ?? '[]');
}

/**
 * The version_number of a workgroup of the organisation, or of a workspace of it: what a
 * conditional read compares with If-None-Match before reading the record. One indexed
 * single-row statement each; undefined when there is no such record.
 */
export async function workgroupVersion(db: Executor, orgId: string, workgroupId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('workgroups')
    .select('version_number')
    .where('org_id', '=', orgId)
    .where('id', '=', workgroupId)
    .executeTakeFirst();
  return row && Number(row.version_number);
}

export async function workspaceVersion(
  db: Executor,
  orgId: string,
  workgroupId: string,
  workspaceId: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .select('version_number')
    .where('org_id', '=', orgId)
    .where('workgroup_id', '=', workgroupId)
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return row && Number(row.version_number);
}
