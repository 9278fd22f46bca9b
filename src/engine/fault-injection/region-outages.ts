import type { ChaosService } from '../../domain/chaos.js';
import { workspacePlacement } from '../../store/repositories/chaos-rules.js';
import type { Store } from '../../store/store.js';
import { failed, type Drivers, type StepOutcome } from '../drivers/driver.js';

/**
 * The drivers with chaos region outages applied (docs/chaos.md): while an outage rule covers
 * a workspace's platform and region, a step of its operations (and of its backups) fails at
 * once, terminally, with the rule named, so the operation fails with that error and its
 * event. Only while an outage rule is in force does a step cost a look at where its
 * workspace is.
 */
export function withRegionOutages(drivers: Drivers, chaos: ChaosService, store: Store): Drivers {
  if (!chaos.enabled) return drivers;
  const outage = async (workspaceId: string): Promise<StepOutcome<never> | undefined> => {
    await chaos.current();
    if (!chaos.anyOutage) return undefined;
    const place = await workspacePlacement(store.db, workspaceId);
    const rule = place && chaos.regionDown(place.org_id, place.platform, place.region);
    if (!rule) return undefined;
    await chaos.hit(rule);
    return failed(`region ${place.platform}/${place.region} is unavailable (chaos rule ${rule.id})`);
  };
  return {
    ...drivers,
    workspace: {
      ...drivers.workspace,
      apply: async (actions, spec, ctx) =>
        (await outage(spec.workspaceId)) ?? drivers.workspace.apply(actions, spec, ctx),
      observe: (spec, ctx) => drivers.workspace.observe(spec, ctx),
      removeDatabase: (ref, ctx) => drivers.workspace.removeDatabase(ref, ctx),
      metrics: (spec, ctx) => drivers.workspace.metrics(spec, ctx),
    },
    backup: {
      ...drivers.backup,
      backup: async (spec, ctx) => (await outage(spec.workspace.workspaceId)) ?? drivers.backup.backup(spec, ctx),
      remove: (ref, ctx) => drivers.backup.remove(ref, ctx),
    },
    close: () => drivers.close(),
  };
}
