import { request as undiciRequest, type Dispatcher } from 'undici';
import type { AllowListEntryBody, AllowListEntryRecord, CurrentIpRecord } from '../schemas/allow-list.js';
import type { ApiKeyRecord, CreateApiKeyBody } from '../schemas/api-key.js';
import type { AddonConfigRecord, AddonRecord, CreateAddonConfigBody, InstalledAddonRecord } from '../schemas/addon.js';
import type {
  CloudProviderRecord,
  CreateCloudProviderBody,
  UpdateCloudProviderBody,
  UpgradeCloudProviderBody,
  ValidateCloudProviderBody,
} from '../schemas/cloud-provider.js';
import type { BackupRecord, BackupScheduleBody, BackupScheduleRecord, CreateBackupBody, RestoreJob, RestoreStatusRecord } from '../schemas/backup.js';
import type { DbUserBody, DbUserRecord } from '../schemas/db-user.js';
import { API_PREFIX, type ErrorEnvelope, type SuccessEnvelope } from '../schemas/envelope.js';
import type { MetaRecord } from '../schemas/meta.js';
import type { OperationRecord } from '../schemas/operation.js';
import type { ScheduleBody, ScheduleRecord } from '../schemas/schedule.js';
import type { CreateWorkgroupBody, UpdateWorkgroupBody, WorkgroupRecord } from '../schemas/workgroup.js';
import type { CreateWorkspaceBody, DatabaseRecord, RenameDatabaseBody, UpdateWorkspaceBody, WorkspaceRecord } from '../schemas/workspace.js';

export type { AddonConfigRecord, AddonRecord, InstalledAddonRecord, ScheduleRecord };
export type { BackupRecord, BackupScheduleRecord, RestoreJob, RestoreStatusRecord };
export type { AllowListEntryRecord, ApiKeyRecord, CloudProviderRecord, CurrentIpRecord, DbUserRecord, MetaRecord, OperationRecord, WorkgroupRecord, WorkspaceRecord };

export { API_PREFIX };

/** One HTTP exchange: status, headers and the envelope, success or error. */
export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: SuccessEnvelope<T> | ErrorEnvelope;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON; a string is sent as it is. */
  body?: unknown;
  ifMatch?: number;
  idempotencyKey?: string;
}

export class AcaciaApiError extends Error {
  constructor(readonly response: ApiResponse<unknown>) {
    const details = 'ErrorDetails' in response.body ? response.body.ErrorDetails : [];
    super(`HTTP ${response.status}: ${details.map((d) => `${d.FieldName}: ${d.Reason}`).join('; ')}`);
    this.name = 'AcaciaApiError';
  }
}

/** The Result of a successful response; throws AcaciaApiError otherwise. */
export function resultOf<T>(response: ApiResponse<T>): T {
  if (response.status !== 200 || response.body.Error) throw new AcaciaApiError(response);
  return (response.body as SuccessEnvelope<T>).Result;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  dispatcher?: Dispatcher;
}

/** Typed client of the Acacia API, built on the same schemas the server validates with. */
export class AcaciaClient {
  constructor(private readonly options: ClientOptions) {}

  /** The same client with another API key. */
  withKey(apiKey: string | undefined): AcaciaClient {
    return new AcaciaClient({ ...this.options, ...(apiKey === undefined ? { apiKey: undefined } : { apiKey }) });
  }

  async request<T = unknown>(method: Dispatcher.HttpMethod, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(path, this.options.baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.options.apiKey !== undefined) headers['x-api-key'] = this.options.apiKey;
    if (opts.ifMatch !== undefined) headers['if-match'] = `"${opts.ifMatch}"`;
    if (opts.idempotencyKey !== undefined) headers['idempotency-key'] = opts.idempotencyKey;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await undiciRequest(url, { method, headers, body, ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}) });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  readonly workgroups = {
    create: (body: CreateWorkgroupBody, opts: RequestOptions = {}) => this.request<WorkgroupRecord>('POST', `${API_PREFIX}/workgroups`, { ...opts, body }),
    list: (query: { limit?: number; cursor?: string } = {}) => this.request<WorkgroupRecord[]>('GET', `${API_PREFIX}/workgroups`, { query }),
    get: (id: string) => this.request<WorkgroupRecord>('GET', `${API_PREFIX}/workgroups/${enc(id)}`),
    update: (id: string, body: UpdateWorkgroupBody, opts: RequestOptions = {}) =>
      this.request<WorkgroupRecord>('PUT', `${API_PREFIX}/workgroups/${enc(id)}`, { ...opts, body }),
    delete: (id: string, opts: RequestOptions = {}) => this.request<WorkgroupRecord>('DELETE', `${API_PREFIX}/workgroups/${enc(id)}`, opts),
  };

  readonly workspaces = {
    create: (wg: string, body: CreateWorkspaceBody, opts: RequestOptions = {}) =>
      this.request<WorkspaceRecord>('POST', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces`, { ...opts, body }),
    list: (wg: string) => this.request<WorkspaceRecord[]>('GET', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces`),
    get: (wg: string, ws: string) => this.request<WorkspaceRecord>('GET', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}`),
    update: (wg: string, ws: string, body: UpdateWorkspaceBody, opts: RequestOptions = {}) =>
      this.request<WorkspaceRecord>('PUT', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}`, { ...opts, body }),
    delete: (wg: string, ws: string, opts: RequestOptions = {}) =>
      this.request<WorkspaceRecord>('DELETE', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}`, opts),
    pause: (wg: string, ws: string) => this.request<WorkspaceRecord>('POST', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/pause`),
    resume: (wg: string, ws: string) => this.request<WorkspaceRecord>('POST', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/resume`),
    refresh: (wg: string, ws: string) => this.request<WorkspaceRecord>('POST', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/refresh`),
  };

  readonly schedules = {
    create: (wg: string, ws: string, body: ScheduleBody) =>
      this.request<ScheduleRecord>('POST', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/schedules`, { body }),
    list: (wg: string, ws: string) => this.request<ScheduleRecord[]>('GET', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/schedules`),
    get: (wg: string, ws: string, id: string) => this.request<ScheduleRecord>('GET', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/schedules/${enc(id)}`),
    update: (wg: string, ws: string, id: string, body: ScheduleBody, opts: RequestOptions = {}) =>
      this.request<string>('PUT', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/schedules/${enc(id)}`, { ...opts, body }),
    delete: (wg: string, ws: string, id: string) => this.request<ScheduleRecord>('DELETE', `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/schedules/${enc(id)}`),
    /** The short path form, /workspaces/{ws}/schedules. */
    listShort: (ws: string) => this.request<ScheduleRecord[]>('GET', `${API_PREFIX}/workspaces/${enc(ws)}/schedules`),
    updateShort: (ws: string, id: string, body: ScheduleBody) => this.request<string>('PUT', `${API_PREFIX}/workspaces/${enc(ws)}/schedules/${enc(id)}`, { body }),
    deleteShort: (ws: string, id: string) => this.request<ScheduleRecord>('DELETE', `${API_PREFIX}/workspaces/${enc(ws)}/schedules/${enc(id)}`),
  };

  readonly databases = {
    list: (wg: string) => this.request<DatabaseRecord[]>('GET', `${API_PREFIX}/workgroups/${enc(wg)}/databases`),
    get: (wg: string, db: string) => this.request<DatabaseRecord>('GET', `${API_PREFIX}/workgroups/${enc(wg)}/databases/${enc(db)}`),
    rename: (wg: string, db: string, body: RenameDatabaseBody, opts: RequestOptions = {}) =>
      this.request<DatabaseRecord>('PUT', `${API_PREFIX}/workgroups/${enc(wg)}/databases/${enc(db)}`, { ...opts, body }),
    delete: (wg: string, db: string) => this.request<DatabaseRecord>('DELETE', `${API_PREFIX}/workgroups/${enc(wg)}/databases/${enc(db)}`),
  };

  readonly allowList = {
    create: (wg: string, body: AllowListEntryBody, opts: RequestOptions = {}) =>
      this.request<AllowListEntryRecord>('POST', `${API_PREFIX}/workgroups/${enc(wg)}/allow_list`, { ...opts, body }),
    list: (wg: string) => this.request<AllowListEntryRecord[]>('GET', `${API_PREFIX}/workgroups/${enc(wg)}/allow_list`),
    update: (wg: string, id: string, body: AllowListEntryBody) =>
      this.request<AllowListEntryRecord>('PUT', `${API_PREFIX}/workgroups/${enc(wg)}/allow_list/${enc(id)}`, { body }),
    delete: (wg: string, id: string) => this.request<AllowListEntryRecord>('DELETE', `${API_PREFIX}/workgroups/${enc(wg)}/allow_list/${enc(id)}`),
    current: (wg: string) => this.request<CurrentIpRecord>('GET', `${API_PREFIX}/workgroups/${enc(wg)}/allow_list/current`),
    enable: (wg: string, opts: RequestOptions = {}) => this.request<WorkgroupRecord>('PUT', `${API_PREFIX}/workgroups/${enc(wg)}/allow_list/enable`, opts),
    disable: (wg: string, opts: RequestOptions = {}) => this.request<WorkgroupRecord>('PUT', `${API_PREFIX}/workgroups/${enc(wg)}/allow_list/disable`, opts),
  };

  readonly dbUsers = {
    create: (wg: string, ws: string, body: DbUserBody) => this.request<DbUserRecord>('POST', dbUserPath(wg, ws), { body }),
    list: (wg: string, ws: string) => this.request<DbUserRecord[]>('GET', dbUserPath(wg, ws)),
    update: (wg: string, ws: string, body: DbUserBody) => this.request<DbUserRecord>('PUT', dbUserPath(wg, ws), { body }),
    /** DELETE with a JSON body, as the contract has it. */
    delete: (wg: string, ws: string, username: string) => this.request<DbUserRecord>('DELETE', dbUserPath(wg, ws), { body: { username } }),
  };

  /** Operations 9 and 10, manual backups, restores and the backup schedule. */
  readonly backups = {
    list: (wg: string, ws: string) => this.request<BackupRecord[]>('GET', backupPath(wg, ws)),
    /** GET /workspaces/{ws}/backups: the same list by workspace id alone. */
    listByWorkspace: (ws: string) => this.request<BackupRecord[]>('GET', `${API_PREFIX}/workspaces/${enc(ws)}/backups`),
    create: (wg: string, ws: string, body: CreateBackupBody = {}, opts: RequestOptions = {}) => this.request<BackupRecord>('POST', backupPath(wg, ws), { ...opts, body }),
    /** DELETE with a JSON body, as the contract has it; Result is the deleted backup's id. */
    delete: (wg: string, ws: string, backupId: string) => this.request<string>('DELETE', backupPath(wg, ws), { body: { backup_id: backupId } }),
    restore: (wg: string, ws: string, backupId: string, opts: RequestOptions = {}) =>
      this.request<RestoreJob>('POST', `${backupPath(wg, ws)}/restore`, { ...opts, body: { backup_id: backupId } }),
    restoreStatus: (ws: string, jobId: string) => this.request<RestoreStatusRecord>('GET', `${API_PREFIX}/workspaces/${enc(ws)}/backups/restore/${enc(jobId)}/status`),
    setSchedule: (wg: string, ws: string, body: BackupScheduleBody, opts: RequestOptions = {}) =>
      this.request<BackupScheduleRecord>('POST', `${backupPath(wg, ws)}/schedule`, { ...opts, body }),
    getSchedule: (ws: string) => this.request<BackupScheduleRecord>('GET', `${API_PREFIX}/workspaces/${enc(ws)}/backups/schedule`),
  };

  readonly operations = {
    get: (id: string) => this.request<OperationRecord>('GET', `${API_PREFIX}/operations/${enc(id)}`),
    list: (resourceId?: string, page: { limit?: number; cursor?: string } = {}) =>
      this.request<OperationRecord[]>('GET', `${API_PREFIX}/operations`, { query: { resource_id: resourceId, ...page } }),
  };

  /**
   * Polls a workspace until `until` accepts it (e.g. status Active) or the attempts run out;
   * returns the last record read. A deleted workspace (404) ends the wait with undefined.
   */
  async waitForWorkspace(wg: string, ws: string, until: (w: WorkspaceRecord) => boolean, opts: { attempts?: number; intervalMs?: number } = {}): Promise<WorkspaceRecord | undefined> {
    let last: WorkspaceRecord | undefined;
    for (let i = 0; i < (opts.attempts ?? 200); i++) {
      const res = await this.workspaces.get(wg, ws);
      if (res.status === 404) return undefined;
      last = resultOf(res);
      if (until(last)) return last;
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 20));
    }
    return last;
  }

  readonly apiKeys = {
    create: (body: CreateApiKeyBody, opts: RequestOptions = {}) => this.request<ApiKeyRecord>('POST', `${API_PREFIX}/apikeys`, { ...opts, body }),
    list: () => this.request<ApiKeyRecord[]>('GET', `${API_PREFIX}/apikeys`),
    revoke: (keyName: string) => this.request<ApiKeyRecord>('DELETE', `${API_PREFIX}/apikeys/${enc(keyName)}`),
  };

  readonly cloudProviders = {
    list: () => this.request<CloudProviderRecord[]>('GET', `${API_PREFIX}/cloud-providers`),
    get: (id: string) => this.request<CloudProviderRecord>('GET', `${API_PREFIX}/cloud-providers/${enc(id)}`),
    create: (body: CreateCloudProviderBody, opts: RequestOptions = {}) => this.request<CloudProviderRecord>('POST', `${API_PREFIX}/cloud-providers`, { ...opts, body }),
    validate: (body: ValidateCloudProviderBody, opts: RequestOptions = {}) => this.request<string>('POST', `${API_PREFIX}/cloud-providers/validate`, { ...opts, body }),
    update: (id: string, body: UpdateCloudProviderBody, opts: RequestOptions = {}) =>
      this.request<CloudProviderRecord>('PUT', `${API_PREFIX}/cloud-providers/${enc(id)}`, { ...opts, body }),
    /** Result: the id of the upgrade operation. */
    upgrade: (id: string, body: UpgradeCloudProviderBody, opts: RequestOptions = {}) =>
      this.request<string>('PUT', `${API_PREFIX}/cloud-providers/${enc(id)}/upgrade`, { ...opts, body }),
    delete: (id: string, opts: RequestOptions = {}) => this.request<CloudProviderRecord>('DELETE', `${API_PREFIX}/cloud-providers/${enc(id)}`, opts),
  };

  /** Polls a cloud provider until `until` accepts it or the attempts run out; returns the last record read. */
  async waitForCloudProvider(id: string, until: (p: CloudProviderRecord) => boolean, opts: { attempts?: number; intervalMs?: number } = {}): Promise<CloudProviderRecord> {
    let last = resultOf(await this.cloudProviders.get(id));
    for (let i = 0; i < (opts.attempts ?? 200) && !until(last); i++) {
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 20));
      last = resultOf(await this.cloudProviders.get(id));
    }
    return last;
  }

  /** Operations 13–17 keep the contract's path segments: addons, add-ons, installed-addons. */
  readonly addons = {
    catalog: () => this.request<AddonRecord[]>('GET', `${API_PREFIX}/addons`),
    /** `enable` is the contract's string query parameter ("true" or "false"). */
    install: (addonsId: string, enable: string | boolean | undefined, opts: RequestOptions = {}) =>
      this.request<InstalledAddonRecord>('POST', `${API_PREFIX}/addons/${enc(addonsId)}/install`, { ...opts, query: { enable } }),
    workspaces: (addonsId: string) => this.request<WorkspaceRecord[]>('GET', `${API_PREFIX}/addons/${enc(addonsId)}/workspaces`),
    installed: () => this.request<InstalledAddonRecord[]>('GET', `${API_PREFIX}/installed-addons`),
    /** Result: the new config's id. */
    createConfig: (installedId: string, body: CreateAddonConfigBody, opts: RequestOptions = {}) =>
      this.request<string>('POST', `${API_PREFIX}/add-ons/${enc(installedId)}/configs`, { ...opts, body }),
    listConfigs: (installedId: string, configName: string) =>
      this.request<AddonConfigRecord[]>('GET', `${API_PREFIX}/installed-addons/${enc(installedId)}/configs/${enc(configName)}`),
    deleteConfig: (installedId: string, configId: string) =>
      this.request<boolean>('DELETE', `${API_PREFIX}/add-ons/${enc(installedId)}/configs/${enc(configId)}`),
  };

  meta() {
    return this.request<MetaRecord>('GET', `${API_PREFIX}/workspaces/meta`);
  }

  /** Manual clock only (ACACIA_CLOCK=manual). */
  moveClock(body: { advance_seconds?: number; now?: string; skip_due?: boolean }) {
    return this.request<{ now: string }>('POST', '/_test/clock', { body });
  }
}

const enc = encodeURIComponent;
const dbUserPath = (wg: string, ws: string) => `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/dbuser`;
const backupPath = (wg: string, ws: string) => `${API_PREFIX}/workgroups/${enc(wg)}/workspaces/${enc(ws)}/backups`;
