import type { WorkspaceBackend } from './workspace-backend.js';

/**
 * The simulated driver's workspaces exist only as records: there is no graph behind them.
 * The gateway still serves the handshake (ping, echo, version, secrets, tokens); anything
 * else is answered, in TigerGraph's error shape, with why and what would serve it.
 */
export const simulatedBackend: WorkspaceBackend = {
  async serve(request) {
    return {
      status: 501,
      body: {
        error: true,
        code: 'no-graph-data',
        message:
          `${request.method} ${request.path} needs the workspace's graph, ` +
          'and the simulated driver holds no graph data. ' +
          'This gateway answers the handshake only: /api/ping, /api/version, /restpp/echo, /restpp/version, ' +
          'tokens (/gsql/v1/tokens, /restpp/requesttoken) and GSQL secrets. Start Acacia with ACACIA_DRIVER=local ' +
          'for workspaces that serve REST++ and GSQL.',
      },
    };
  },
};
