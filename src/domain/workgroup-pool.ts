import type { Store } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import { lockOrganisation } from '../store/repositories/organisations.js';
import { countWorkgroups } from '../store/repositories/workgroups.js';
import { listWorkspacesOfWorkgroups } from '../store/repositories/workspaces.js';
import * as poolRepo from '../store/repositories/workgroup-pool.js';
import type { WorkgroupRecord } from '../schemas/workgroup.js';
import { publicProviders, type Catalog, type Platform } from './catalog.js';
import type { Clock } from './clock.js';
import { AppError, conflict } from './errors.js';
import { newId } from './ids.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount, checkTierSize, checkWorkspaceQuota, type QuotaShape } from './quotas.js';
import type { RequestContext, WorkgroupService } from './workgroups.js';
import { FREE_TIER_AUTO_STOP_MINUTES, type WorkspaceService } from './workspaces.js';

const HOUR_MS = 3_600_000;

/** The pool as configured (ACACIA_POOL_*): how many workgroups are kept warm, and what each holds. */
export interface PoolSettings {
  /** Workgroups kept warm; 0 turns the pool off. */
  size: number;
  /** The public provider of each member, as `platform/region`. */
  provider: string;
  /** The size of each member's one read-write workspace. */
  workspaceType: string;
  /** Its TigerGraph version; undefined: the catalog's newest. */
  tgVersion?: string | undefined;
  /** Acquisitions one organisation may make in an hour; 0 = no cap. */
  acquiresPerHour: number;
}

export const poolOff: PoolSettings = { size: 0, provider: 'aws/us-east-1', workspaceType: 'TG-00', acquiresPerHour: 0 };

/** What the pool's refills are made from: no request, so no caller address. */
const engineContext: RequestContext = { ip: '127.0.0.1' };

/**
 * The workgroup pool (docs/pooled-workgroups.md): workgroups with an Active workspace, kept
 * warm in an organisation of their own so `GET /pooled-workgroups/acquire` hands one over at
 * once. The engine calls `refill`; the members are made through the same services as any
 * workgroup and workspace, so every rule, driver step and event applies to them.
 */
export class WorkgroupPool {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workgroups: WorkgroupService,
    private readonly workspaces: WorkspaceService,
    readonly settings: PoolSettings,
    /** Asks the engine to refill soon (once the acquisition committed). */
    private readonly refillSoon: () => void,
  ) {}

  private principal(orgId: string): Principal {
    return {
      orgId,
      orgName: poolRepo.POOL_ORGANISATION,
      tier: 'enterprise',
      keyId: 'pool',
      keyName: 'pool',
      role: 'org-admin',
      workgroupIds: [],
      workspaceIds: [],
      // The engine acts as the pool's owner: an org admin of that organisation only.
      grants: [{ role: 'org-admin', resource_id: null }],
      platformAdmin: false,
      quotaExempt: true,
    };
  }

  /** The public provider the members are made on. */
  private providerId(): string {
    const [platform, region] = this.settings.provider.split('/') as [Platform, string];
    const found = publicProviders(this.catalog).find((p) => p.platform === platform && p.region === region);
    if (!found) throw new Error(`no public provider ${this.settings.provider} in the catalog`);
    return found.id;
  }

  /**
   * Brings the pool to its size: members whose workspace failed are let go (the workgroup
   * expirer deletes them), and the missing ones are created. One transaction under the lock of
   * the pool's organisation, so processes refilling at once count one after another and
   * never make more than the size between them. Returns how many members it started or let go.
   */
  async refill(): Promise<number> {
    const { size } = this.settings;
    if (size === 0) return 0;
    const now = this.clock.now();
    return this.store.transaction(async (trx) => {
      const orgId = await poolRepo.ensurePoolOrganisation(trx.db, newId(), now);
      await lockOrganisation(trx.db, orgId);
      let changed = 0;
      for (const wg of await poolRepo.failedPoolMembers(trx.db, orgId, size))
        if (await poolRepo.retirePoolMember(trx, wg, now)) changed++;
      const missing = size - (await poolRepo.countPoolMembers(trx.db, orgId));
      const p = this.principal(orgId);
      for (let i = 0; i < missing; i++) {
        // Never expiring while pooled, whatever the default life: a member is counted while it lives.
        const body = { cloud_provider_id: this.providerId(), expires_at: null };
        const wg = await this.workgroups.create(p, body, engineContext, trx);
        await this.workspaces.create(
          p,
          wg.workgroup_id,
          {
            workspace_type_name: this.settings.workspaceType,
            ...(this.settings.tgVersion !== undefined ? { tg_version: this.settings.tgVersion } : {}),
          },
          engineContext,
          trx,
        );
        changed++;
      }
      return changed;
    });
  }

  /** Members ready to be handed over now (the tests and the log). */
  async ready(): Promise<number> {
    const orgId = await poolRepo.findPoolOrganisation(this.store.db);
    return orgId === undefined ? 0 : poolRepo.countReadyMembers(this.store.db, orgId);
  }

  /**
   * Hands the oldest ready member to the caller's organisation, in one transaction: the
   * workgroup, its database and workspace (Active) become the organisation's, with the events
   * a workgroup created for it would have had, and the engine is woken to refill. The caller's
   * tier applies as to a creation: its workgroup count, largest size and workspace quotas
   * (Quota-Exceed, nothing moved). Needs an org-admin key (creating a workgroup does).
   */
  async acquire(p: Principal, ctx: RequestContext): Promise<WorkgroupRecord> {
    const { size, acquiresPerHour } = this.settings;
    if (size === 0)
      throw new AppError('disabled', {
        field: 'ACACIA_POOL_SIZE',
        reason: 'this server keeps no pooled workgroups (ACACIA_POOL_SIZE is 0); create one with POST /workgroups',
      });
    authorize(p, 'org:admin');
    const now = this.clock.now();
    const id = await this.store
      .transaction(async (trx) => {
        // The caller's organisation first, as every quota-checking writer locks it.
        await lockOrganisation(trx.db, p.orgId);
        if (acquiresPerHour > 0) {
          const since = now - HOUR_MS;
          const count = await poolRepo.countAcquisitions(trx.db, p.orgId, since);
          if (count >= acquiresPerHour) {
            const oldest = (await poolRepo.oldestAcquisitionSince(trx.db, p.orgId, since)) ?? now;
            const wait = Math.max(1, Math.ceil((oldest + HOUR_MS - now) / 1000));
            throw new AppError('rate-limited', {
              field: 'ACACIA_POOL_ACQUIRES_PER_HOUR',
              reason: `at most ${acquiresPerHour} pooled workgroups per organisation an hour; retry in ${wait} seconds`,
            });
          }
        }
        const poolOrg = await poolRepo.findPoolOrganisation(trx.db);
        const member = poolOrg === undefined ? undefined : await poolRepo.claimReadyMember(trx, poolOrg);
        const shapes: QuotaShape[] = member
          ? await listWorkspacesOfWorkgroups(trx.db, [member.id])
          : [{ is_rw: true, size: this.settings.workspaceType, enable_ha: false }];
        // As a creation checks them, in that order: the workgroup, then its workspace.
        checkCount(
          'name',
          await countWorkgroups(trx.db, p.orgId),
          this.catalog.limits.workgroups_per_organisation,
          'workgroups per organisation',
        );
        for (const shape of shapes) {
          checkTierSize(this.catalog, p, 'workspace_type_name', shape.size);
          await checkWorkspaceQuota(trx.db, this.catalog, p, shape);
        }
        if (!member)
          throw new AppError('pool-empty', {
            field: 'pooled-workgroups',
            reason: `no pooled workgroup is ready; the engine keeps ${size} warm and is making more`,
          });
        await poolRepo.handOverMember(trx, member, {
          toOrgId: p.orgId,
          name: member.name,
          creator: p.keyName,
          now,
          autoStopMinutes: p.tier === 'free' ? FREE_TIER_AUTO_STOP_MINUTES : undefined,
          // The life a workgroup the organisation created now would have.
          expiresAt: this.workgroups.defaultExpiresAt(now),
        });
        await poolRepo.insertAcquisition(trx.db, {
          id: newId(),
          org_id: p.orgId,
          workgroup_id: member.id,
          acquired_at: now,
        });
        trx.afterCommit(this.refillSoon);
        return member.id;
      })
      .catch((err: unknown): never => {
        if (isUniqueViolation(err)) throw conflict('name', 'the organisation has a workgroup of the same name; retry');
        throw err;
      });
    return this.workgroups.get(p, id, ctx);
  }
}
