import { newId } from './ids.js';
import type { Store, Tx } from '../store/store.js';
import * as addonsRepo from '../store/repositories/installed-addons.js';
import type { AddonConfig } from '../store/repositories/installed-addons.js';
import {
  MAX_CONFIG_VALUE_BYTES,
  type AddonConfigRecord,
  type CreateAddonConfigBody,
  type UpdateAddonConfigBody,
} from '../schemas/addon.js';
import { lockRow } from '../store/repositories/row-locks.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import type { AddonService } from './addons.js';
import { invalid, notFound } from './errors.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount } from './quotas.js';
import { iso } from './time.js';

/** The rule of a config value beyond its schema: at most 64 KiB in UTF-8 (a string's length counts UTF-16 units). */
function checkValue(value: string): void {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_CONFIG_VALUE_BYTES)
    throw invalid('config_value', `must be at most ${MAX_CONFIG_VALUE_BYTES} bytes (64 KiB); it is ${bytes}`);
}

const configRecord = (c: AddonConfig): AddonConfigRecord => ({
  id: c.id,
  config_name: c.config_name,
  config_value: c.config_value,
  created_at: iso(c.created_at),
});

/** Name/value configurations of an installed add-on (operations 15–17). */
export class AddonConfigService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly addons: AddonService,
  ) {}

  /** Operation 15: returns the new config's id. Several configs may share a name. */
  async create(p: Principal, installedId: string, body: CreateAddonConfigBody, tx?: Tx): Promise<string> {
    authorize(p, 'org:admin');
    const addon = await this.addons.loadInstalled(this.store.reader(tx), p, installedId);
    checkValue(body.config_value);
    const id = newId();
    const limit = this.catalog.limits.configs_per_addon;
    await this.store.unit(tx, async (trx) => {
      await lockRow(trx.db, 'installed_addons', addon.id);
      checkCount(
        'installedAddonsID',
        await addonsRepo.countAddonConfigs(trx.db, addon.id),
        limit,
        'configs per add-on',
      );
      await addonsRepo.insertAddonConfig(trx.db, {
        id,
        org_id: p.orgId,
        installed_addon_id: addon.id,
        config_name: body.config_name,
        config_value: body.config_value,
        created_at: this.clock.now(),
      });
    });
    return id;
  }

  /** Operation 16: the configs with that name, oldest first (an empty list when there are none). */
  async listByName(p: Principal, installedId: string, name: string): Promise<AddonConfigRecord[]> {
    const addon = await this.addons.loadInstalled(this.store.db, p, installedId);
    const rows = await addonsRepo.listAddonConfigsByName(this.store.db, addon.id, name);
    return rows.map(configRecord);
  }

  /**
   * Sets a config's value, validated as its creation is; its name and id stay. 404 naming
   * installedAddonsID or configID for one not the organisation's.
   */
  async update(
    p: Principal,
    installedId: string,
    configId: string,
    body: UpdateAddonConfigBody,
    tx?: Tx,
  ): Promise<AddonConfigRecord> {
    authorize(p, 'org:admin');
    const addon = await this.addons.loadInstalled(this.store.reader(tx), p, installedId);
    checkValue(body.config_value);
    const updated = await this.store.unit(tx, (trx) =>
      addonsRepo.updateAddonConfig(trx.db, addon.id, configId, body.config_value),
    );
    if (!updated) throw notFound('configID', `no config "${configId}" on installed add-on ${addon.id}`);
    return configRecord(updated);
  }

  /** Operation 17. */
  async delete(p: Principal, installedId: string, configId: string): Promise<true> {
    authorize(p, 'org:admin');
    const addon = await this.addons.loadInstalled(this.store.db, p, installedId);
    if (!(await addonsRepo.deleteAddonConfig(this.store.db, addon.id, configId))) {
      throw notFound('configID', `no config "${configId}" on installed add-on ${addon.id}`);
    }
    return true;
  }
}
