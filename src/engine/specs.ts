import { findSize, replicasOf, type Catalog } from '../domain/catalog.js';
import type { CloudProviderRow } from '../store/repositories/cloud-providers.js';
import type { Workspace, WorkspaceChanges } from '../store/repositories/workspaces.js';
import { desired } from '../store/models/workspace.js';
import type { AccountSpec, WorkspaceObserved, WorkspaceSize, WorkspaceSpec } from './drivers/driver.js';

/** A spec that cannot be built (a size the catalog no longer has): a terminal failure, no retry helps. */
export class SpecError extends Error {}

/** A catalog size as a driver provisions it. */
export function resolveSize(catalog: Catalog, name: string): WorkspaceSize | undefined {
  const size = findSize(catalog, name);
  return size && { name: size.typeName, cpu: size.cpu, memoryGb: size.memory_gb, partitions: size.partition };
}

/** What the workspace was last observed running as: its status, given back to the driver. */
export function observedOf(ws: Workspace, catalog: Catalog): WorkspaceObserved {
  const size = resolveSize(catalog, ws.size);
  return {
    ...(size ? { size } : {}),
    replicas: replicasOf(catalog, ws.size, ws.enable_ha),
    version: ws.tg_version,
    topologyBytes: ws.graph_topology_size_bytes,
    ...(ws.data_observed_at !== null ? { vertexCount: ws.vertex_count, edgeCount: ws.edge_count } : {}),
    ...(ws.snapshot_time !== null ? { snapshotTime: ws.snapshot_time } : {}),
    ...(ws.snapshot_id !== null ? { snapshotId: ws.snapshot_id } : {}),
    endpoint: ws.endpoint,
  };
}

/**
 * Where a workspace's data comes from: the row names it, the runner finds it
 * (src/engine/kinds/workspace-runner.ts).
 */
export type SpecSources = Partial<Pick<WorkspaceSpec, 'restoreFrom' | 'sourceWorkspaceId'>>;

/**
 * The workspace's desired state, from its spec fields: the size, HA and version it asks for
 * (what it runs at when it asks nothing more), its data (`sources`, resolved from what it
 * names), and what it was last observed running as.
 */
export function workspaceSpec(ws: Workspace, catalog: Catalog, sources: SpecSources = {}): WorkspaceSpec {
  const sizeName = desired(ws, 'size');
  const size = resolveSize(catalog, sizeName);
  if (!size) throw new SpecError(`size ${sizeName} is not in the catalog of workspace sizes`);
  return {
    workspaceId: ws.id,
    databaseId: ws.database_id,
    readOnly: !ws.is_rw,
    size,
    replicas: replicasOf(catalog, sizeName, desired(ws, 'enable_ha')),
    version: desired(ws, 'tg_version'),
    ...sources,
    observed: observedOf(ws, catalog),
  };
}

/** The columns a driver's observed-state patch writes: what the workspace runs at and holds. */
export function observedChanges(observed: WorkspaceObserved, now: number): WorkspaceChanges {
  const hasCounts = observed.vertexCount !== undefined || observed.edgeCount !== undefined;
  return {
    ...(observed.size ? { size: observed.size.name } : {}),
    ...(observed.replicas !== undefined ? { enable_ha: observed.replicas > 1 } : {}),
    ...(observed.version !== undefined ? { tg_version: observed.version } : {}),
    ...(observed.topologyBytes !== undefined ? { graph_topology_size_bytes: observed.topologyBytes } : {}),
    ...(observed.vertexCount !== undefined ? { vertex_count: observed.vertexCount } : {}),
    ...(observed.edgeCount !== undefined ? { edge_count: observed.edgeCount } : {}),
    ...(hasCounts ? { data_observed_at: now } : {}),
    ...(observed.snapshotTime !== undefined ? { snapshot_time: observed.snapshotTime } : {}),
    ...(observed.snapshotId !== undefined ? { snapshot_id: observed.snapshotId } : {}),
    ...(observed.endpoint !== undefined ? { endpoint: observed.endpoint } : {}),
  };
}

/** A BYOC account as a driver sets it up, with what an upgrade asks. */
export function accountSpec(provider: CloudProviderRow, upgrade?: AccountSpec['upgrade']): AccountSpec {
  return {
    providerId: provider.id,
    shortId: provider.short_id,
    platform: provider.platform,
    region: provider.region,
    roleArn: provider.role_arn ?? '',
    roleExternalId: provider.role_external_id ?? undefined,
    secureConnection: provider.options?.secure_connection ?? false,
    ...(upgrade ? { upgrade } : {}),
  };
}
