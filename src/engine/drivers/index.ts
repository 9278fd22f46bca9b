import type { DriverDeps, Drivers } from './driver.js';

/**
 * Every driver by its ACACIA_DRIVER name: adding a driver is adding its folder under
 * drivers/ and one line here. Loaded on demand, so reading the configuration (the CLI does
 * for every command) loads no driver.
 */
const factories = {
  simulated: async () => (await import('./simulated/index.js')).simulatedDrivers,
  local: async () => (await import('./local/index.js')).localDrivers,
} satisfies Record<string, () => Promise<(deps: DriverDeps) => Drivers>>;

export type DriverName = keyof typeof factories;
export const driverNames = Object.keys(factories) as DriverName[];

/** The drivers named by ACACIA_DRIVER (the configuration accepts only the names above). */
export async function createDrivers(name: DriverName, deps: DriverDeps): Promise<Drivers> {
  const factory = factories[name];
  if (!factory) throw new Error(`no provisioner driver "${name}"; the drivers are ${driverNames.join(', ')}`);
  return (await factory())(deps);
}

export type * from './driver.js';
