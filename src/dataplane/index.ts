/**
 * The data plane: a graph store per file and the process that serves it over a documented
 * subset of TigerGraph's REST++ and GSQL (docs/data-plane.md). This is what drivers and the
 * gateway use; nothing here depends on the control plane.
 */
export { DATA_PLANE_SECRET_HEADER } from './http-server.js';
export {
  DataPlaneStartError,
  isPidAlive,
  startDataPlane,
  stopPid,
  type DataPlaneProcess,
  type StartOptions,
} from './launcher.js';
export { readStoreStats, removeAbandonedPartials, restoreStore, snapshotStore, type StoreStats } from './snapshot.js';
export { StoreJobError, StoreJobs } from './store-jobs.js';
export { ensureStoreFile } from './store-file.js';
export { versionText } from './version-text.js';
export { dataPlaneSecret } from './secret-key.js';
export { socketFolder, socketPath } from './local-socket.js';
export { STATS_KEY_HEADER, STATS_PATH, statsKey } from './stats-route.js';
export type { EndpointFigures } from './request-figures.js';
