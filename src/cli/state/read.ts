import {
  resultOf,
  type AddonRecord,
  type InstalledAddonRecord,
  type AcaciaClient,
  type AllowListEntryRecord,
  type BackupScheduleRecord,
  type CloudProviderRecord,
  type DbUserRecord,
  type ScheduleRecord,
  type WorkgroupRecord,
  type WorkspaceRecord,
} from '../../client/index.js';
import type { WebhookRecord } from '../../schemas/webhook.js';

/** One workspace as the server holds it, with what hangs off it. */
export interface LiveWorkspace {
  record: WorkspaceRecord;
  dbUsers: DbUserRecord[];
  schedules: ScheduleRecord[];
  backupSchedule: BackupScheduleRecord | undefined;
}

export interface LiveWorkgroup {
  record: WorkgroupRecord;
  /** How the file names its provider: platform/region when public, else its name. */
  provider: string;
  allowList: AllowListEntryRecord[];
  workspaces: LiveWorkspace[];
}

/** The organisation's state as the server holds it, read through the API. */
export interface LiveState {
  /** The add-on catalog, and what the organisation installed of it. */
  catalog: AddonRecord[];
  installed: InstalledAddonRecord[];
  workgroups: LiveWorkgroup[];
  webhooks: WebhookRecord[];
  providers: CloudProviderRecord[];
  /** The server's driver and gateway, when it says (GET /_status): where a graph section goes. */
  server?: { driver: string; gatewayUrl: string };
}

/** Names compare as the API compares them: Unicode NFC, ignoring case. */
export const nameKey = (name: string) => name.normalize('NFC').toLowerCase();

export function providerLabel(p: CloudProviderRecord): string {
  return p.type === 'public' ? `${p.platform}/${p.region}` : (p.name ?? p.id);
}

async function allWorkgroups(client: AcaciaClient): Promise<WorkgroupRecord[]> {
  const out: WorkgroupRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.workgroups.list({ limit: 100, ...(cursor ? { cursor } : {}) });
    out.push(...resultOf(page));
    const next = page.headers['x-next-cursor'];
    cursor = typeof next === 'string' && next ? next : undefined;
  } while (cursor);
  return out;
}

export async function readWorkspace(client: AcaciaClient, record: WorkspaceRecord): Promise<LiveWorkspace> {
  const wg = record.workgroup_id;
  const ws = record.workspace_id;
  const backup = await client.backups.getSchedule(ws);
  return {
    record,
    dbUsers: resultOf(await client.dbUsers.list(wg, ws)),
    schedules: resultOf(await client.schedules.list(wg, ws)),
    backupSchedule: backup.status === 404 ? undefined : resultOf(backup),
  };
}

export async function readLiveState(client: AcaciaClient): Promise<LiveState> {
  const providers = resultOf(await client.cloudProviders.list());
  const byId = new Map(providers.map((p) => [p.id, p]));
  const workgroups: LiveWorkgroup[] = [];
  for (const record of await allWorkgroups(client)) {
    const provider = byId.get(record.cloud_provider_id);
    const workspaces: LiveWorkspace[] = [];
    // Deleting workspaces are on their way out: the state is what remains.
    for (const ws of record.workspaces.filter((w) => w.status !== 'Deleting'))
      workspaces.push(await readWorkspace(client, ws));
    workgroups.push({
      record,
      provider: provider ? providerLabel(provider) : record.cloud_provider_id,
      allowList: resultOf(await client.allowList.list(record.workgroup_id)),
      workspaces,
    });
  }
  const status = await client.serverStatus();
  return {
    ...(status.status === 200
      ? { server: { driver: resultOf(status).driver, gatewayUrl: resultOf(status).gateway_url } }
      : {}),
    catalog: resultOf(await client.addons.catalog()),
    installed: resultOf(await client.addons.installed()),
    workgroups,
    webhooks: resultOf(await client.webhooks.list()),
    providers,
  };
}
