import { newId } from './ids.js';
import type { Executor, Store, Tx } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as addonsRepo from '../store/repositories/installed-addons.js';
import type { InstalledAddon } from '../store/repositories/installed-addons.js';
import { lockOrganisation } from '../store/repositories/organisations.js';
import { listWorkgroups } from '../store/repositories/workgroups.js';
import type { Workspace } from '../store/repositories/workspaces.js';
import {
  MAX_CONFIG_VALUE_BYTES,
  type AddonRecord,
  type AddonsMetaRecord,
  type InstalledAddonRecord,
} from '../schemas/addon.js';
import type { WorkspaceRecord } from '../schemas/workspace.js';
import type { Clock } from './clock.js';
import type { Catalog } from './catalog.js';
import { conflict, invalid, notFound } from './errors.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { loadViews, workspaceRecord } from './records.js';
import { iso } from './time.js';
import type { RequestContext, WorkgroupService } from './workgroups.js';

type CatalogAddon = Catalog['addons'][number];

function installedRecord(addon: InstalledAddon, entry: CatalogAddon | undefined): InstalledAddonRecord {
  return {
    id: addon.id,
    addons_id: addon.addons_id,
    // An add-on later removed from the catalog keeps its installation; its id stands in for the names.
    unique_name: entry?.unique_name ?? addon.addons_id,
    title: entry?.title ?? addon.addons_id,
    is_free: entry?.is_free ?? false,
    enabled: addon.enabled,
    org_id: addon.org_id,
    created_at: iso(addon.created_at),
    updated_at: iso(addon.updated_at),
    version_number: addon.version_number,
  };
}

const usesAddon = (ws: Workspace, addonsId: string) => ws.addons.some((a) => a.addons_id === addonsId && a.enable);

/** Add-ons: the catalog, installation per organisation, and which workspaces enable them. */
export class AddonService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workgroups: WorkgroupService,
  ) {}

  /** The workspace gate: an add-on may be enabled on workspaces once installed and enabled. */
  async isEnabled(db: Executor, orgId: string, addonsId: string): Promise<boolean> {
    return (await addonsRepo.findInstalledAddonByAddon(db, orgId, addonsId))?.enabled ?? false;
  }

  async listCatalog(p: Principal): Promise<AddonRecord[]> {
    const installed = new Map(
      (await addonsRepo.listInstalledAddons(this.store.db, p.orgId)).map((a) => [a.addons_id, a]),
    );
    return this.catalog.addons.map((entry) => {
      const addon = installed.get(entry.addons_id);
      return {
        ...entry,
        installed: addon !== undefined,
        enabled: addon?.enabled ?? false,
        ...(addon ? { installed_addons_id: addon.id } : {}),
      };
    });
  }

  /** `GET /addons/meta`: the catalog's add-ons and the limits of their configurations. */
  meta(): AddonsMetaRecord {
    return {
      addons: this.catalog.addons.map(({ addons_id, unique_name, title, is_free, description }) => ({
        addons_id,
        unique_name,
        title,
        is_free,
        description,
      })),
      max_configs_per_addon: this.catalog.limits.configs_per_addon,
      max_config_value_bytes: MAX_CONFIG_VALUE_BYTES,
    };
  }

  /** One installed add-on of the caller's organisation (404 naming installedAddonsID otherwise). */
  async getInstalled(p: Principal, id: string): Promise<InstalledAddonRecord> {
    const addon = await this.loadInstalled(this.store.db, p, id);
    return installedRecord(addon, this.entry(addon.addons_id));
  }

  async listInstalled(p: Principal): Promise<InstalledAddonRecord[]> {
    return (await addonsRepo.listInstalledAddons(this.store.db, p.orgId)).map((a) =>
      installedRecord(a, this.entry(a.addons_id)),
    );
  }

  /**
   * Operation 13: installs the add-on for the organisation, or enables or disables it.
   * Disabling is refused while workspaces still have the add-on enabled.
   */
  async install(p: Principal, addonsId: string, enable: string, tx?: Tx): Promise<InstalledAddonRecord> {
    authorize(p, 'org:admin');
    if (enable !== 'true' && enable !== 'false') throw invalid('enable', `must be "true" or "false", not "${enable}"`);
    const entry = this.entry(addonsId);
    if (!entry) throw notFound('addonsID', `no add-on "${addonsId}" in the catalog`);
    const wanted = enable === 'true';
    const now = this.clock.now();

    // Two attempts: a concurrent first install makes the insert lose, and the retry updates instead.
    for (let attempt = 0; attempt < 2; attempt++) {
      const current = await addonsRepo.findInstalledAddonByAddon(this.store.reader(tx), p.orgId, addonsId);
      if (!current) {
        const addon: InstalledAddon = {
          id: newId(),
          org_id: p.orgId,
          addons_id: addonsId,
          enabled: wanted,
          created_at: now,
          updated_at: now,
          version_number: 1,
        };
        try {
          // A savepoint of the request's unit (or a transaction of its own), so that losing
          // the race undoes only this insert and the retry can go on.
          await this.store.unit(tx, (trx) => addonsRepo.insertInstalledAddon(trx.db, addon));
          return installedRecord(addon, entry);
        } catch (err) {
          if (isUniqueViolation(err)) continue;
          throw err;
        }
      }
      if (current.enabled === wanted) return installedRecord(current, entry);
      const changed = await this.store.unit(tx, async (trx) => {
        // The lock a workspace enabling the add-on takes: one of the two sees the other's commit.
        await lockOrganisation(trx.db, p.orgId);
        if (!wanted) await this.refuseWhileInUse(trx.db, p, addonsId);
        return addonsRepo.setInstalledAddonEnabled(trx.db, current, wanted, now);
      });
      if (changed) {
        return installedRecord(
          { ...current, enabled: wanted, updated_at: now, version_number: current.version_number + 1 },
          entry,
        );
      }
    }
    throw conflict('addonsID', 'the add-on was changed by another request; retry');
  }

  /** Operation 14: the organisation's workspaces that have the add-on enabled. */
  async workspaces(p: Principal, addonsId: string, ctx: RequestContext): Promise<WorkspaceRecord[]> {
    if (!this.entry(addonsId)) throw notFound('addonsID', `no add-on "${addonsId}" in the catalog`);
    const rc = this.workgroups.recordContext(ctx);
    return (await this.viewsUsing(this.store.db, p, addonsId)).flatMap(({ view, using }) =>
      using.map((ws) => workspaceRecord(ws, view, rc)),
    );
  }

  /** The installed add-on of the caller's organisation, or Not-Found (also for other organisations' ids). */
  async loadInstalled(db: Executor, p: Principal, id: string): Promise<InstalledAddon> {
    const addon = await addonsRepo.findInstalledAddon(db, p.orgId, id);
    if (!addon) throw notFound('installedAddonsID', `no installed add-on "${id}"`);
    return addon;
  }

  private async refuseWhileInUse(db: Executor, p: Principal, addonsId: string): Promise<void> {
    const names = (await this.viewsUsing(db, p, addonsId)).flatMap(({ view, using }) =>
      using.map((ws) => `${view.workgroup.name}/${ws.name}`),
    );
    if (names.length > 0)
      throw conflict(
        'enable',
        `workspaces still have this add-on enabled: ${names.join(', ')}; disable it on them first`,
      );
  }

  private async viewsUsing(db: Executor, p: Principal, addonsId: string) {
    const { items } = await listWorkgroups(db, p.orgId);
    const views = await loadViews(db, p.orgName, items);
    return views
      .map((view) => ({ view, using: view.workspaces.filter((ws) => usesAddon(ws, addonsId)) }))
      .filter((v) => v.using.length > 0);
  }

  private entry(addonsId: string): CatalogAddon | undefined {
    return this.catalog.addons.find((a) => a.addons_id === addonsId);
  }
}
