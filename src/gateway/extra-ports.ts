import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { boundConnections, type ConnectionSettings } from '../listener/connection-limits.js';

/**
 * More loopback ports the gateway answers on, each serving exactly what its main port serves
 * (a developer setting: pyTigerGraph's async client, configured for a TigerGraph server, sends
 * REST++ to port 9000 and GSQL to 14240, and does not fall back from one to the other).
 */
export interface ExtraPorts {
  ports: number[];
  close(): Promise<void>;
}

export async function listenExtraPorts(
  gateway: FastifyInstance,
  host: string,
  ports: number[],
  settings: ConnectionSettings,
): Promise<ExtraPorts> {
  const servers: http.Server[] = [];
  const close = () =>
    Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    ).then(() => undefined);
  try {
    for (const port of ports) {
      // The same request handling as the main port's server: the forwarding lane, then Fastify's routing.
      const server = http.createServer((req, res) => gateway.server.emit('request', req, res));
      server.headersTimeout = gateway.server.headersTimeout;
      server.requestTimeout = gateway.server.requestTimeout;
      server.keepAliveTimeout = gateway.server.keepAliveTimeout;
      // Each port holds as many connections as the main one may: its own count, the same caps.
      boundConnections(server, settings);
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { ports: servers.map((s) => (s.address() as AddressInfo).port), close };
}
