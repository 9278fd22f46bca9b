import { findAllowList, type AllowListEntryView } from '../store/repositories/record-views.js';
import { newId } from './ids.js';
import type { Store, Tx } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as repo from '../store/repositories/allow-list.js';
import type { AllowListChanges, AllowListEntry } from '../store/repositories/allow-list.js';
import type { Workgroup } from '../store/repositories/workgroups.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import type { AllowListEntryBody, AllowListEntryRecord, CurrentIpRecord } from '../schemas/allow-list.js';
import type { WorkgroupRecord } from '../schemas/workgroup.js';
import { checkAddress, expiresProblem } from './allow-list-rules.js';
import { displayAddress, normaliseCidr } from '../addresses/cidr.js';
import { Problems, conflict, invalid, notFound } from './errors.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount } from './quotas.js';
import { iso } from './time.js';
import { checkIfMatch, type RequestContext, type WorkgroupService } from './workgroups.js';

const duplicate = (cidr: string) => conflict('cidr', `${cidr} is already in this workgroup's allow list`);

export function entryRecord(e: AllowListEntryView): AllowListEntryRecord {
  return {
    id: e.id,
    cidr: e.cidr,
    ...(e.note !== null ? { note: e.note } : {}),
    ...(e.expires_at !== null ? { expires_at: iso(e.expires_at) } : {}),
    created_at: iso(e.created_at),
  };
}

/** A workgroup's IP allow list (DESIGN §6): entries, and the switch that makes the gateway enforce it. */
export class AllowListService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workgroups: WorkgroupService,
  ) {}

  async list(p: Principal, workgroupId: string): Promise<AllowListEntryRecord[]> {
    const entries = await findAllowList(this.store.db, p.orgId, workgroupId, this.clock.now());
    if (!entries) throw notFound('workgroupID', `no workgroup "${workgroupId}"`);
    return entries.map(entryRecord);
  }

  async create(p: Principal, workgroupId: string, body: AllowListEntryBody, tx?: Tx): Promise<AllowListEntryRecord> {
    const wg = await this.editable(p, workgroupId, tx);
    const now = this.clock.now();
    const { cidr } = this.validate(body, now);
    const entry: AllowListEntry = {
      id: newId(),
      org_id: wg.org_id,
      workgroup_id: wg.id,
      cidr,
      note: body.note ?? null,
      expires_at: body.expires_at ? Date.parse(body.expires_at) : null,
      created_at: now,
      updated_at: now,
    };
    const limit = this.catalog.limits.allow_list_entries_per_workgroup;
    try {
      await this.store.unit(tx, async (trx) => {
        // An expired entry still waiting for the purge must not make its range a duplicate,
        // nor count against the limit: the count is read after the purge, with the lock.
        await repo.deleteExpiredEntries(trx.db, now, wg.id);
        const entries = await repo.lockEntryCount(trx.db, wg.id);
        checkCount('workgroupID', entries ?? 0, limit, 'allow-list entries per workgroup');
        await repo.insertEntry(trx, entry);
        trx.offerRecord('allow_list_entry', entry.id, entryRecord(entry));
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate(entry.cidr);
      throw err;
    }
    return entryRecord(entry);
  }

  /** Operation 12: `cidr` is required; omitted `note` and `expires_at` keep their values. */
  async update(p: Principal, workgroupId: string, id: string, body: AllowListEntryBody): Promise<AllowListEntryRecord> {
    const wg = await this.editable(p, workgroupId);
    const now = this.clock.now();
    const entry = await this.find(wg, id, now);
    if (body.id !== undefined && body.id !== id)
      throw invalid('id', `must be the allow list entry id of the path, ${id}`);
    const changes: AllowListChanges = {
      ...this.validate(body, now),
      ...(body.note !== undefined ? { note: body.note } : {}),
      ...(body.expires_at !== undefined
        ? { expires_at: body.expires_at === null ? null : Date.parse(body.expires_at) }
        : {}),
    };
    const record = entryRecord({ ...entry, ...changes });
    try {
      await this.store.transaction(async (trx) => {
        await repo.deleteExpiredEntries(trx.db, now, wg.id);
        await repo.updateEntry(trx, entry, changes, now);
        trx.offerRecord('allow_list_entry', entry.id, record);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate(changes.cidr!);
      throw err;
    }
    return record;
  }

  /** Returns the entry as it was. */
  async delete(p: Principal, workgroupId: string, id: string): Promise<AllowListEntryRecord> {
    const wg = await this.editable(p, workgroupId);
    const entry = await this.find(wg, id, this.clock.now());
    await this.store.transaction((trx) => repo.deleteEntry(trx, entry));
    return entryRecord(entry);
  }

  /** Whether the caller's address passes the list, and which entry it falls in. */
  async current(p: Principal, workgroupId: string, ctx: RequestContext): Promise<CurrentIpRecord> {
    const wg = await this.workgroups.load(this.store.db, p, workgroupId);
    const now = this.clock.now();
    const entries = await repo.listEntriesOfWorkgroups(this.store.db, [wg.id], now);
    const check = checkAddress(wg.enable_allow_list, entries, ctx.ip, now);
    const ip = displayAddress(ctx.ip);
    return {
      IsAllowed: check.allowed,
      CurrentIP: ip,
      ip,
      allowed: check.allowed,
      enable_allow_list: wg.enable_allow_list,
      ...(check.matched ? { matched_entry_id: check.matched.id } : {}),
    };
  }

  /** PUT …/allow_list/enable and …/disable: the workgroup's `enable_allow_list`. */
  async setEnabled(p: Principal, workgroupId: string, enabled: boolean, ctx: RequestContext): Promise<WorkgroupRecord> {
    const wg = await this.editable(p, workgroupId);
    checkIfMatch(ctx.ifMatch, wg.version_number);
    if (wg.enable_allow_list === enabled) return this.workgroups.get(p, wg.id, ctx);
    return this.workgroups.applyChanges(p, wg, { enable_allow_list: enabled }, ctx);
  }

  private async editable(p: Principal, workgroupId: string, tx?: Tx): Promise<Workgroup> {
    const wg = await this.workgroups.load(this.store.reader(tx), p, workgroupId);
    authorize(p, 'workgroup:edit', { workgroupId: wg.id });
    return wg;
  }

  private async find(wg: Workgroup, id: string, now: number): Promise<AllowListEntry> {
    const entry = await repo.findEntry(this.store.db, wg.id, id, now);
    if (!entry) throw notFound('id', `no allow list entry "${id}" in workgroup ${wg.id}`);
    return entry;
  }

  /** Checks the body's rules together; returns the normalised cidr. */
  private validate(body: AllowListEntryBody, now: number): { cidr: string } {
    const problems = new Problems();
    const cidr = normaliseCidr(body.cidr);
    if (!cidr.ok) problems.add('cidr', cidr.reason);
    if (body.expires_at) {
      const problem = expiresProblem(Date.parse(body.expires_at), now);
      if (problem) problems.add('expires_at', problem);
    }
    problems.throwIfAny();
    return { cidr: cidr.ok ? cidr.cidr : '' };
  }
}
