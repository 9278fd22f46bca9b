import {
  resultOf,
  type AcaciaClient,
  type BackupRecord,
  type CloudProviderRecord,
  type WorkgroupRecord,
  type WorkspaceRecord,
} from '../client/index.js';
import { exitCodes, UsageError } from './exit-codes.js';

/** Names compare as the API compares them: Unicode NFC, ignoring case. */
const key = (name: string) => name.normalize('NFC').toLowerCase();

const notFound = (what: string, value: string, hint = '') =>
  new UsageError(`no ${what} "${value}" (by id or name)${hint}`, exitCodes['Not-Found']);

/** The one record whose id is `value`, else the one whose name is (ignoring case). */
function pick<T>(records: readonly T[], value: string, id: (r: T) => string, name: (r: T) => string): T[] {
  const byId = records.filter((r) => id(r) === value);
  return byId.length > 0 ? byId : records.filter((r) => key(name(r)) === key(value));
}

/** What an id looks like (ids are UUIDs): worth one read by id before a lookup by name. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Workgroups read a page at a time when every one must be looked at. */
const PAGE = 20;

/**
 * The workgroup whose id is `value`, else the one so named (ignoring case): by id one read of
 * it, by name the list filtered by the server (`?name=`) rather than the whole list. The
 * answer is matched here too, so a server that ignores the filter still gives the right one.
 */
export async function findWorkgroup(client: AcaciaClient, value: string): Promise<WorkgroupRecord> {
  if (UUID.test(value)) {
    const byId = await client.workgroups.get(value);
    if (byId.status !== 404) return resultOf(byId);
  }
  const [found] = pick(
    resultOf(await client.workgroups.list({ name: value })),
    value,
    (w) => w.workgroup_id,
    (w) => w.name,
  );
  if (!found) throw notFound('workgroup', value);
  return found;
}

/** Every workgroup, a page at a time: no answer holds more than PAGE of them. */
export async function* allWorkgroups(client: AcaciaClient): AsyncGenerator<WorkgroupRecord> {
  let cursor: string | undefined;
  do {
    const page = await client.workgroups.list({ limit: PAGE, ...(cursor ? { cursor } : {}) });
    yield* resultOf(page);
    const next = page.headers['x-next-cursor'];
    cursor = typeof next === 'string' && next ? next : undefined;
  } while (cursor);
}

/**
 * A workspace by id or name: within the workgroup when one is given (one lookup of it), else
 * across all of them, read a page at a time (a name must be looked for everywhere: it may be
 * in several workgroups).
 */
export async function findWorkspace(
  client: AcaciaClient,
  value: string,
  workgroup?: string,
): Promise<{ workgroupId: string; workspaceId: string }> {
  const candidates: WorkspaceRecord[] = [];
  if (workgroup) candidates.push(...(await findWorkgroup(client, workgroup)).workspaces);
  else for await (const g of allWorkgroups(client)) candidates.push(...g.workspaces);
  const found = pick(
    candidates,
    value,
    (w) => w.workspace_id,
    (w) => w.name,
  );
  if (found.length === 0) throw notFound('workspace', value, workgroup ? ` in workgroup "${workgroup}"` : '');
  if (found.length > 1)
    throw new UsageError(
      `${found.length} workspaces are named "${value}" (in ${found.map((w) => w.workgroup_name).join(', ')}): ` +
        'name the workgroup with --workgroup',
    );
  return { workgroupId: found[0]!.workgroup_id, workspaceId: found[0]!.workspace_id };
}

export async function findDatabase(client: AcaciaClient, value: string, workgroupId: string): Promise<string> {
  const dbs = resultOf(await client.databases.list(workgroupId));
  const [found] = pick(
    dbs,
    value,
    (d) => d.database_id,
    (d) => d.name,
  );
  if (!found) throw notFound('database', value);
  return found.database_id;
}

/**
 * A cloud provider by `platform/region` (the public one there), id, short id or name:
 * `aws/us-east-1`, `gcp/us-central1`.
 */
export async function findProvider(client: AcaciaClient, value: string): Promise<CloudProviderRecord> {
  const all = resultOf(await client.cloudProviders.list());
  const slash = /^([a-z]+)\/(.+)$/i.exec(value);
  if (slash) {
    const [, platform, region] = slash;
    const found = all.find(
      (p) => p.type === 'public' && key(p.platform) === key(platform!) && key(p.region) === key(region!),
    );
    if (found) return found;
    const regions = all.filter((p) => p.type === 'public').map((p) => `${p.platform}/${p.region}`);
    throw new UsageError(`no public provider ${value}; there are: ${regions.join(', ')}`, exitCodes['Not-Found']);
  }
  const byShort = all.filter((p) => p.short_id === value);
  const [found] = byShort.length
    ? byShort
    : pick(
        all,
        value,
        (p) => p.id,
        (p) => p.name ?? '',
      );
  if (!found) throw notFound('cloud provider', value, ' (or platform/region, e.g. aws/us-east-1)');
  return found;
}

/** A workspace's place: what reads under it need. */
export interface WorkspacePlace {
  workgroupId: string;
  workspaceId: string;
}

/**
 * A backup by id or by tag (ignoring case), among the backups of the workspace given, else of
 * every workspace. A tag several backups carry names none: the error lists them, newest last.
 */
export async function findBackup(
  client: AcaciaClient,
  value: string,
  workspace?: WorkspacePlace,
): Promise<WorkspacePlace & { backup: BackupRecord }> {
  const places: WorkspacePlace[] = [];
  if (workspace) places.push(workspace);
  else
    for await (const g of allWorkgroups(client))
      for (const w of g.workspaces) places.push({ workgroupId: w.workgroup_id, workspaceId: w.workspace_id });
  const candidates: Array<WorkspacePlace & { backup: BackupRecord }> = [];
  for (const place of places) {
    const res = await client.backups.list(place.workgroupId, place.workspaceId);
    // A read-only workspace has no backups of its own to list, nor does one gone meanwhile.
    if (res.status !== 200) continue;
    for (const backup of resultOf(res)) candidates.push({ ...place, backup });
  }
  const byId = candidates.filter((c) => c.backup.id === value);
  const found = byId.length > 0 ? byId : candidates.filter((c) => c.backup.tag && key(c.backup.tag) === key(value));
  if (found.length === 0) throw notFound('backup', value, ' (by id or tag)');
  if (found.length > 1)
    throw new UsageError(
      `${found.length} backups are tagged "${value}": name one by id: ` +
        found.map((c) => `${c.backup.id} (${c.backup.time}, ${c.backup.status})`).join(', '),
    );
  return found[0]!;
}

/** A database by id or name, in the workgroup given, else in every workgroup (one match only). */
export async function findDatabaseAnywhere(
  client: AcaciaClient,
  value: string,
  workgroup?: string,
): Promise<{ workgroupId: string; databaseId: string }> {
  if (workgroup) {
    const workgroupId = (await findWorkgroup(client, workgroup)).workgroup_id;
    return { workgroupId, databaseId: await findDatabase(client, value, workgroupId) };
  }
  const found: Array<{ workgroupId: string; databaseId: string }> = [];
  for await (const g of allWorkgroups(client)) {
    const dbs = pick(
      resultOf(await client.databases.list(g.workgroup_id)),
      value,
      (d) => d.database_id,
      (d) => d.name,
    );
    for (const d of dbs) found.push({ workgroupId: g.workgroup_id, databaseId: d.database_id });
  }
  if (found.length === 0) throw notFound('database', value);
  if (found.length > 1)
    throw new UsageError(`${found.length} databases are named "${value}": name the workgroup with --workgroup`);
  return found[0]!;
}
