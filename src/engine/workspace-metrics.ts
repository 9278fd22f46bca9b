import type { Catalog } from '../domain/catalog.js';
import type { Clock } from '../domain/clock.js';
import type { ReadWorkspaceMetrics } from '../domain/workspace-metrics.js';
import type { Drivers } from './drivers/driver.js';
import { workspaceSpec } from './specs.js';

/** Reads a workspace's figures from the workspace driver, with the spec the engine would give it. */
export function metricsReader(
  drivers: Pick<Drivers, 'workspace'>,
  catalog: Catalog,
  clock: Clock,
): ReadWorkspaceMetrics {
  return async (ws, signal) => drivers.workspace.metrics(workspaceSpec(ws, catalog), { now: clock.now(), signal });
}
