import { call, enc } from './http.js';
import type {
  AddonConfigRecord,
  AddonRecord,
  AllowListEntryBody,
  AllowListEntryRecord,
  ApiKeyRecord,
  BackupRecord,
  BackupScheduleBody,
  BackupScheduleRecord,
  CloudProviderRecord,
  CreateAddonConfigBody,
  CreateApiKeyBody,
  CreateCloudProviderBody,
  CreateWorkgroupBody,
  CreateWorkspaceBody,
  CurrentIpRecord,
  DbUserBody,
  DbUserRecord,
  InstalledAddonRecord,
  MetaRecord,
  OperationRecord,
  ScheduleBody,
  ScheduleRecord,
  UpdateWorkgroupBody,
  UpdateWorkspaceBody,
  WorkgroupRecord,
  WorkspaceRecord,
} from './types.js';

const wgPath = (wg: string) => `/workgroups/${enc(wg)}`;
const wsPath = (wg: string, ws: string) => `${wgPath(wg)}/workspaces/${enc(ws)}`;

/** The API routes the console uses, typed by the server's schemas. */
export const api = {
  currentKey: (key?: string) => call<ApiKeyRecord>('GET', '/apikeys/current', key === undefined ? {} : { key }),
  meta: () => call<MetaRecord>('GET', '/workspaces/meta'),

  workgroups: {
    list: () => call<WorkgroupRecord[]>('GET', '/workgroups'),
    get: (wg: string) => call<WorkgroupRecord>('GET', wgPath(wg)),
    create: (body: CreateWorkgroupBody) => call<WorkgroupRecord>('POST', '/workgroups', { body }),
    update: (wg: string, body: UpdateWorkgroupBody) => call<WorkgroupRecord>('PUT', wgPath(wg), { body }),
    delete: (wg: string) => call<WorkgroupRecord>('DELETE', wgPath(wg)),
  },

  workspaces: {
    list: (wg: string) => call<WorkspaceRecord[]>('GET', `${wgPath(wg)}/workspaces`),
    get: (wg: string, ws: string) => call<WorkspaceRecord>('GET', wsPath(wg, ws)),
    create: (wg: string, body: CreateWorkspaceBody) =>
      call<WorkspaceRecord>('POST', `${wgPath(wg)}/workspaces`, { body }),
    update: (wg: string, ws: string, body: UpdateWorkspaceBody) =>
      call<WorkspaceRecord>('PUT', wsPath(wg, ws), { body }),
    delete: (wg: string, ws: string) => call<WorkspaceRecord>('DELETE', wsPath(wg, ws)),
    action: (wg: string, ws: string, action: 'pause' | 'resume' | 'refresh') =>
      call<WorkspaceRecord>('POST', `${wsPath(wg, ws)}/${action}`),
  },

  operations: (resourceId: string) =>
    call<OperationRecord[]>('GET', '/operations', { query: { resource_id: resourceId, limit: 50 } }),

  backups: {
    list: (wg: string, ws: string) => call<BackupRecord[]>('GET', `${wsPath(wg, ws)}/backups`),
    take: (wg: string, ws: string, tag?: string) =>
      call<BackupRecord>('POST', `${wsPath(wg, ws)}/backups`, { body: tag ? { tag } : {} }),
    delete: (wg: string, ws: string, backupId: string) =>
      call<string>('DELETE', `${wsPath(wg, ws)}/backups`, { body: { backup_id: backupId } }),
    restore: (wg: string, ws: string, backupId: string) =>
      call<string>('POST', `${wsPath(wg, ws)}/backups/restore`, { body: { backup_id: backupId } }),
    /** 404 while the workspace has no backup schedule. */
    schedule: (ws: string) => call<BackupScheduleRecord>('GET', `/workspaces/${enc(ws)}/backups/schedule`),
    setSchedule: (wg: string, ws: string, body: BackupScheduleBody) =>
      call<BackupScheduleRecord>('POST', `${wsPath(wg, ws)}/backups/schedule`, { body }),
  },

  schedules: {
    list: (wg: string, ws: string) => call<ScheduleRecord[]>('GET', `${wsPath(wg, ws)}/schedules`),
    create: (wg: string, ws: string, body: ScheduleBody) =>
      call<ScheduleRecord>('POST', `${wsPath(wg, ws)}/schedules`, { body }),
    delete: (wg: string, ws: string, id: string) =>
      call<ScheduleRecord>('DELETE', `${wsPath(wg, ws)}/schedules/${enc(id)}`),
  },

  dbUsers: {
    list: (wg: string, ws: string) => call<DbUserRecord[]>('GET', `${wsPath(wg, ws)}/dbuser`),
    create: (wg: string, ws: string, body: DbUserBody) =>
      call<DbUserRecord>('POST', `${wsPath(wg, ws)}/dbuser`, { body }),
    setPassword: (wg: string, ws: string, body: DbUserBody) =>
      call<DbUserRecord>('PUT', `${wsPath(wg, ws)}/dbuser`, { body }),
    delete: (wg: string, ws: string, username: string) =>
      call<DbUserRecord>('DELETE', `${wsPath(wg, ws)}/dbuser`, { body: { username } }),
  },

  allowList: {
    list: (wg: string) => call<AllowListEntryRecord[]>('GET', `${wgPath(wg)}/allow_list`),
    current: (wg: string) => call<CurrentIpRecord>('GET', `${wgPath(wg)}/allow_list/current`),
    create: (wg: string, body: AllowListEntryBody) =>
      call<AllowListEntryRecord>('POST', `${wgPath(wg)}/allow_list`, { body }),
    update: (wg: string, id: string, body: AllowListEntryBody) =>
      call<AllowListEntryRecord>('PUT', `${wgPath(wg)}/allow_list/${enc(id)}`, { body }),
    delete: (wg: string, id: string) => call<AllowListEntryRecord>('DELETE', `${wgPath(wg)}/allow_list/${enc(id)}`),
    setEnabled: (wg: string, enabled: boolean) =>
      call<WorkgroupRecord>('PUT', `${wgPath(wg)}/allow_list/${enabled ? 'enable' : 'disable'}`),
  },

  addons: {
    catalog: () => call<AddonRecord[]>('GET', '/addons'),
    install: (addonsId: string, enable: boolean) =>
      call<InstalledAddonRecord>('POST', `/addons/${enc(addonsId)}/install`, { query: { enable } }),
    configs: (installedId: string, name: string) =>
      call<AddonConfigRecord[]>('GET', `/installed-addons/${enc(installedId)}/configs/${enc(name)}`),
    createConfig: (installedId: string, body: CreateAddonConfigBody) =>
      call<string>('POST', `/add-ons/${enc(installedId)}/configs`, { body }),
    deleteConfig: (installedId: string, configId: string) =>
      call<boolean>('DELETE', `/add-ons/${enc(installedId)}/configs/${enc(configId)}`),
  },

  cloudProviders: {
    list: () => call<CloudProviderRecord[]>('GET', '/cloud-providers'),
    create: (body: CreateCloudProviderBody) => call<CloudProviderRecord>('POST', '/cloud-providers', { body }),
    delete: (id: string) => call<CloudProviderRecord>('DELETE', `/cloud-providers/${enc(id)}`),
  },

  apiKeys: {
    list: () => call<ApiKeyRecord[]>('GET', '/apikeys'),
    create: (body: CreateApiKeyBody) => call<ApiKeyRecord>('POST', '/apikeys', { body }),
    revoke: (name: string) => call<ApiKeyRecord>('DELETE', `/apikeys/${enc(name)}`),
  },
};
