import {
  resultOf,
  type AcaciaClient,
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
async function* allWorkgroups(client: AcaciaClient): AsyncGenerator<WorkgroupRecord> {
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
