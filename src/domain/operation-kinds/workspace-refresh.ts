import { listWorkspacesOfDatabase } from '../../store/repositories/workspaces.js';
import { paramsOf, workspaceOperationKind } from './kind.js';

/**
 * workspace.refresh: a read-only workspace takes a new snapshot of its database;
 * Refreshing → Active. A driver that reports no figures of the snapshot (the simulated one
 * holds no data) leaves the read-write workspace's figures, as of now, as the snapshot's.
 */
export const workspaceRefresh = workspaceOperationKind({
  op: 'refresh',
  params: paramsOf('refresh'),
  transition: { from: ['Active'], via: 'Refreshing', condition: 'Refresh', verb: 'refresh' },
  steps: { refresh: 30 },
  requests: () => ({ refresh_status: 'InProgress', refresh_message: null }),
  completed: async (trx, ws, _params, observed, now) => {
    const rw =
      observed.graph_topology_size_bytes === undefined
        ? (await listWorkspacesOfDatabase(trx, ws.database_id)).find((w) => w.is_rw)
        : undefined;
    return {
      refresh_status: 'Succeeded',
      refresh_message: 'refreshed from the read-write workspace of the database',
      snapshot_time: observed.snapshot_time ?? now,
      ...(rw
        ? {
            graph_topology_size_bytes: rw.graph_topology_size_bytes,
            vertex_count: rw.vertex_count,
            edge_count: rw.edge_count,
            data_observed_at: rw.data_observed_at,
          }
        : {}),
    };
  },
  failed: (_params, message) => ({ refresh_status: 'Failed', refresh_message: message }),
});
