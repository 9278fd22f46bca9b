import { workgroupVersion } from '../store/repositories/record-views.js';
import { newId } from './ids.js';
import type { Executor, Store, Tx } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as wgRepo from '../store/repositories/workgroups.js';
import type { Workgroup, WorkgroupChanges } from '../store/repositories/workgroups.js';
import * as providersRepo from '../store/repositories/cloud-providers.js';
import { lockOrganisation } from '../store/repositories/organisations.js';
import type { Page, PageResult } from '../store/pagination.js';
import type { Clock } from './clock.js';
import type { CreateWorkgroupBody, UpdateWorkgroupBody, WorkgroupRecord } from '../schemas/workgroup.js';
import type { Catalog, Platform } from './catalog.js';
import { AppError, Problems, conflict, notFound, refusedByReference } from './errors.js';
import { resumeAfter } from './paging.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount } from './quotas.js';
import {
  loadViewById,
  loadViews,
  workgroupRecord,
  type Caller,
  type RecordContext,
  type WorkgroupView,
} from './records.js';
import { acceptName, requireName } from './names.js';
import { iso } from './time.js';

/** What the request tells the domain beyond its body. */
export interface RequestContext {
  /** The caller's address (after trusted proxies). */
  ip: string;
  /** The If-Match version, when the request carried one. */
  ifMatch?: number | undefined;
}

export function checkIfMatch(ifMatch: number | undefined, current: number): void {
  if (ifMatch !== undefined && ifMatch !== current) {
    throw new AppError('precondition', { field: 'If-Match', reason: `version_number is ${current}, not ${ifMatch}` });
  }
}

const concurrentChange = () =>
  conflict('version_number', 'the resource was changed by another request; read it again and retry');
const expiring = (wg: Workgroup) =>
  conflict('workgroupID', `the workgroup expired at ${iso(wg.expired_at!)} and is being deleted`);
const duplicateName = (name: string) =>
  conflict('name', `a workgroup named "${name}" already exists in this organisation`);

/** How long a workgroup may be given to live (ACACIA_WORKGROUP_*_TTL_HOURS). */
export interface WorkgroupExpirySettings {
  /** The furthest ahead `expires_at` may be (ms). */
  maxTtlMs: number;
  /** The life of a workgroup created without `expires_at` (ms); 0 = it never expires. */
  defaultTtlMs: number;
}

const noDefaultTtl: WorkgroupExpirySettings = { maxTtlMs: 90 * 24 * 3_600_000, defaultTtlMs: 0 };

export class WorkgroupService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly baseDomain: string,
    private readonly expiry: WorkgroupExpirySettings = noDefaultTtl,
  ) {}

  /**
   * The `expires_at` a body asks for, as epoch ms: undefined when it says nothing, null to
   * never expire; a time must be in the future and at most the maximum ahead.
   */
  private expiresAt(
    problems: Problems,
    body: { expires_at?: string | null; expires_in_seconds?: number },
    now: number,
  ): number | null | undefined {
    const { expires_at: value, expires_in_seconds: seconds } = body;
    if (value !== undefined && seconds !== undefined) {
      problems.add('expires_in_seconds', 'give expires_at or expires_in_seconds, not both');
      return undefined;
    }
    const field = seconds !== undefined ? 'expires_in_seconds' : 'expires_at';
    if (value === undefined && seconds === undefined) return undefined;
    if (value === null) return null;
    const at = seconds !== undefined ? now + seconds * 1000 : Date.parse(value!);
    if (Number.isNaN(at)) problems.add(field, 'must be an RFC 3339 time without a leap second');
    else if (at <= now) problems.add(field, `must be after the current time ${iso(now)}`);
    else if (at > now + this.expiry.maxTtlMs)
      problems.add(
        field,
        `must be at most ${this.expiry.maxTtlMs / 3_600_000} hours ahead (ACACIA_WORKGROUP_MAX_TTL_HOURS), ` +
          `before ${iso(now + this.expiry.maxTtlMs)}`,
      );
    else return at;
    return undefined;
  }

  /**
   * How records are rendered for this request, and who it comes from: `is_current_ip_allowed`
   * follows the rule the gateway enforces (src/domain/allow-list-rules.ts), asked of the store
   * as the workgroup's view is read (record-views).
   */
  recordContext(ctx: RequestContext): RecordContext {
    return { catalog: this.catalog, baseDomain: this.baseDomain, caller: { ip: ctx.ip, now: this.clock.now() } };
  }

  async create(p: Principal, body: CreateWorkgroupBody, ctx: RequestContext, tx?: Tx): Promise<WorkgroupRecord> {
    authorize(p, 'org:admin');
    const provider = await providersRepo.findVisibleProvider(this.store.reader(tx), p.orgId, body.cloud_provider_id);
    if (!provider) throw notFound('cloud_provider_id', `no cloud provider "${body.cloud_provider_id}"`);

    const problems = new Problems();
    const name = acceptName(problems, 'name', body.name);
    const now = this.clock.now();
    const asked = this.expiresAt(problems, body, now);
    const expiresAt = asked !== undefined ? asked : this.defaultExpiresAt(now);
    if (body.platform !== undefined && body.platform !== provider.platform) {
      problems.add('platform', `must be "${provider.platform}", the platform of cloud provider ${provider.id}`);
    }
    if (body.region !== undefined) {
      const known = this.catalog.regions[(body.platform ?? provider.platform) as Platform] ?? [];
      if (!known.includes(body.region))
        problems.add('region', `"${body.region}" is not a ${provider.platform} region; known: ${known.join(', ')}`);
      else if (body.region !== provider.region)
        problems.add('region', `must be "${provider.region}", the region of cloud provider ${provider.id}`);
    }
    problems.throwIfAny();
    if (provider.status !== 'Active') {
      throw conflict(
        'cloud_provider_id',
        `cloud provider ${provider.id} is ${provider.status}; workgroups need an Active provider`,
      );
    }

    const id = newId();
    const wg: Workgroup = {
      id,
      org_id: p.orgId,
      name: name ?? `workgroup-${id.slice(-8)}`,
      cloud_provider_id: provider.id,
      platform: provider.platform,
      region: provider.region,
      enable_allow_list: false,
      enable_application_log: body.enable_application_log ?? false,
      encryption_method: body.enable_encryption ? 'TMK' : null,
      shared_storage: body.shared_storage ?? false,
      creator: p.keyName,
      created_at: now,
      updated_at: now,
      version_number: 1,
      expires_at: expiresAt,
      expired_at: null,
    };
    const limit = this.catalog.limits.workgroups_per_organisation;
    try {
      await this.store.unit(tx, async (trx) => {
        // Locked first, so concurrent creates count one after another and cannot overshoot together.
        await lockOrganisation(trx.db, p.orgId);
        checkCount('name', await wgRepo.countWorkgroups(trx.db, p.orgId), limit, 'workgroups per organisation');
        await wgRepo.insertWorkgroup(trx, wg);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateName(wg.name);
      return refusedByReference('cloud_provider_id', 'the cloud provider was deleted meanwhile')(err);
    }
    return workgroupRecord(
      {
        workgroup: wg,
        provider,
        orgName: p.orgName,
        databases: [],
        workspaces: [],
        // A new workgroup's allow list is disabled: it allows everyone.
        callerAllowed: true,
        backupSizes: new Map(),
      },
      this.recordContext(ctx),
    );
  }

  /** The `expires_at` a workgroup created now without one gets (ACACIA_WORKGROUP_DEFAULT_TTL_HOURS), or null. */
  defaultExpiresAt(now: number): number | null {
    return this.expiry.defaultTtlMs > 0 ? now + this.expiry.defaultTtlMs : null;
  }

  /** The version_number the workgroup's record would carry, or undefined (the read then says why). */
  async currentVersion(p: Principal, id: string): Promise<number | undefined> {
    return workgroupVersion(this.store.db, p.orgId, id);
  }

  async get(p: Principal, id: string, ctx: RequestContext): Promise<WorkgroupRecord> {
    const rc = this.recordContext(ctx);
    return workgroupRecord(await this.view(this.store.db, p, id, rc.caller), rc);
  }

  /** A page of the workgroups; with `name`, only the one so named (the CLI's lookups by name). */
  async list(
    p: Principal,
    page: Page & { name?: string | undefined },
    ctx: RequestContext,
  ): Promise<PageResult<WorkgroupRecord>> {
    const result = await wgRepo.listWorkgroups(this.store.db, p.orgId, page.limit, resumeAfter(page), page.name);
    const rc = this.recordContext(ctx);
    const views = await loadViews(this.store.db, p.orgName, result.items, rc.caller);
    return { ...result, items: views.map((v) => workgroupRecord(v, rc)) };
  }

  async update(p: Principal, id: string, body: UpdateWorkgroupBody, ctx: RequestContext): Promise<WorkgroupRecord> {
    const wg = await this.load(this.store.db, p, id);
    authorize(p, 'workgroup:edit', { workgroupId: wg.id });
    checkIfMatch(ctx.ifMatch, wg.version_number);
    if (wg.expired_at !== null) throw expiring(wg);
    const problems = new Problems();
    const expiresAt = this.expiresAt(problems, body, this.clock.now());
    problems.throwIfAny();
    const changes: WorkgroupChanges = {
      name: requireName('workgroup_name', body.workgroup_name),
      enable_application_log: body.enable_application_log,
      encryption_method: body.encryption_method,
      expires_at: expiresAt,
    };
    return this.applyChanges(p, wg, changes, ctx);
  }

  /** Writes the changes under optimistic concurrency and returns the new record. */
  async applyChanges(
    p: Principal,
    wg: Workgroup,
    changes: WorkgroupChanges,
    ctx: RequestContext,
  ): Promise<WorkgroupRecord> {
    let updated: boolean;
    try {
      updated = await this.store.transaction((trx) => wgRepo.updateWorkgroup(trx, wg, changes, this.clock.now()));
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateName(changes.name!);
      throw err;
    }
    if (!updated) throw concurrentChange();
    return this.get(p, wg.id, ctx);
  }

  async delete(p: Principal, id: string, ctx: RequestContext): Promise<WorkgroupRecord> {
    const rc = this.recordContext(ctx);
    const view = await this.view(this.store.db, p, id, rc.caller);
    const wg = view.workgroup;
    authorize(p, 'org:admin');
    checkIfMatch(ctx.ifMatch, wg.version_number);
    if (view.workspaces.length > 0 || view.databases.length > 0) {
      throw conflict(
        'workgroupID',
        `the workgroup still holds ${view.workspaces.length} workspace(s) ` +
          `and ${view.databases.length} database(s); delete them first`,
      );
    }
    // The foreign keys refuse the delete if a child was added since the check.
    await this.store
      .transaction((trx) => wgRepo.deleteWorkgroup(trx, wg.id))
      .catch(
        refusedByReference(
          'workgroupID',
          'a workspace or database was added to the workgroup meanwhile; delete it first',
        ),
      );
    return workgroupRecord(view, rc);
  }

  /** The workgroup of the caller's organisation, or Not-Found (also for other organisations' ids). */
  /** The workgroup with what its record embeds, in one read; Not-Found otherwise. */
  async view(db: Executor, p: Principal, id: string, caller?: Caller): Promise<WorkgroupView> {
    const view = await loadViewById(db, p, id, caller);
    if (!view) throw notFound('workgroupID', `no workgroup "${id}"`);
    return view;
  }

  async load(db: Executor, p: Principal, id: string): Promise<Workgroup> {
    const wg = await wgRepo.findWorkgroup(db, p.orgId, id);
    if (!wg) throw notFound('workgroupID', `no workgroup "${id}"`);
    return wg;
  }
}
