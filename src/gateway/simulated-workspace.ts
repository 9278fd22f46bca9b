import type { Workspace } from '../store/repositories/workspaces.js';

export interface WorkspaceReply {
  status: number;
  body: Record<string, unknown>;
}

/** The few TigerGraph-like endpoints the simulated driver's workspace answers (DESIGN §9). */
export function simulatedReply(method: string, path: string, ws: Workspace): WorkspaceReply {
  if (method === 'GET' || method === 'HEAD') {
    switch (path) {
      case '/api/ping':
        return { status: 200, body: { error: false, message: 'pong' } };
      case '/restpp/echo':
        return { status: 200, body: { error: false, message: 'Hello GSQL' } };
      case '/api/version':
        return { status: 200, body: { error: false, message: '', results: { tigergraph_version: ws.tg_version, workspace_id: ws.id } } };
    }
  }
  return {
    status: 404,
    body: { error: true, code: 'not-found', message: `the workspace has no endpoint ${method} ${path}; it answers GET /api/ping, /restpp/echo and /api/version` },
  };
}
