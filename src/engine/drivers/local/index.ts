import { StoreJobs } from '../../../dataplane/index.js';
import { SimulatedAccountDriver } from '../simulated/account.js';
import type { DriverDeps, Drivers } from '../driver.js';
import { LocalBackupDriver } from './backup.js';
import { Layout } from './layout.js';
import { LocalRuntimes } from './runtimes.js';
import { LocalWorkspaceDriver } from './workspace.js';

/** How long a runtime stays its owner's without renewal: three observation intervals. */
export const RUNTIME_LEASE_MS = 90_000;

/**
 * The local driver: workspaces hold real graph data, each database's graph in a store file
 * under the data directory and each Active workspace served by a data-plane process, a child
 * of this process on a loopback port (docs/drivers.md). Cloud accounts stay simulated: there
 * is no cloud on a laptop.
 */
export function localDrivers({ config, logger, store, clock, runtimeLost }: DriverDeps): Drivers {
  const layout = new Layout(config.dataDir);
  const runtimes = new LocalRuntimes({
    store,
    clock,
    logger: logger.child({ driver: 'local' }),
    dataDir: config.dataDir,
    bodyLimit: config.bodyLimit,
    gsqlOutputLimit: config.gsqlOutputLimit,
    leaseMs: RUNTIME_LEASE_MS,
    runtimeLost: () => runtimeLost?.(),
  });
  const jobs = new StoreJobs();
  let closing = false;
  // Copies that a crash cut short are removed at start (and by the next copy to their folder).
  jobs.sweep(layout.copyFolders()).then(
    (removed) => {
      if (removed > 0) logger.info({ removed }, 'removed partial copies left by a crash');
    },
    (err: unknown) => {
      if (!closing) logger.warn({ err }, 'could not look for partial copies left by a crash');
    },
  );
  return {
    name: 'local',
    workspace: new LocalWorkspaceDriver(layout, runtimes, jobs, config.dataDir),
    backup: new LocalBackupDriver(layout, jobs),
    account: new SimulatedAccountDriver(0),
    quiesce: () => runtimes.stopAll(),
    close: async () => {
      closing = true;
      await runtimes.close();
      await jobs.close();
    },
  };
}
