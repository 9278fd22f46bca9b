import type { DriverDeps, Drivers } from '../driver.js';
import { SimulatedAccountDriver } from './account.js';
import { SimulatedBackupDriver } from './backup.js';
import { SimulatedWorkspaceDriver } from './workspace.js';

/**
 * The simulated provisioner: infrastructure modelled as durations scaled by ACACIA_SIM_SPEED
 * (1 = realistic seconds, 0 = the next step). The default driver, for benchmarks, fault
 * injection and CI stand-ins: fast, deterministic and without side effects.
 */
export function simulatedDrivers({ config }: DriverDeps): Drivers {
  const speed = config.simSpeed;
  return {
    name: 'simulated',
    workspace: new SimulatedWorkspaceDriver(speed),
    backup: new SimulatedBackupDriver(speed),
    account: new SimulatedAccountDriver(speed),
    close: async () => undefined,
  };
}
