import type { GraphBackend } from '../domain/graph-requests.js';
import type { WorkspaceBackend } from './workspace-backend.js';

/**
 * The console's graph requests served by the gateway's backend, as the gateway serves an admitted request:
 * the API route has checked the key, the access rule and the workspace's state instead of the gateway.
 */
export function consoleGraphBackend(backend: WorkspaceBackend): GraphBackend {
  return (req, ws) =>
    backend.serve(
      {
        method: req.method,
        path: req.path,
        query: req.query,
        headers: req.body === undefined ? {} : { 'content-type': 'text/plain' },
        body: req.body,
        identity: { orgId: req.orgId, workspaceId: ws.id, userId: req.userId, username: req.keyName, via: 'api-key' },
      },
      ws,
    );
}
