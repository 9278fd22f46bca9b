import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { clientOf, inRange, parseCaller, parseRange, type Range } from '../addresses/cidr.js';

/** The settings connections are bounded by (ACACIA_MAX_CONNECTIONS… in src/config.ts). */
export interface ConnectionSettings {
  /** Open connections per listener; 0 = no cap. */
  maxConnections: number;
  /** Open connections per listener from one client address (IPv6: one /64); 0 = no cap. */
  maxConnectionsPerClient: number;
  /** Time an idle keep-alive connection stays open (ms). */
  keepAliveTimeoutMs: number;
  /** Addresses, CIDR ranges or the names below whose X-Forwarded-For is trusted. */
  trustProxy: string[] | undefined;
}

/** From this share of the connection cap on, a connection that falls idle is kept only briefly. */
export const NEAR_CAP_SHARE = 0.75;
/** Idle keep-alive near the cap (or the configured keep-alive, when shorter). */
export const NEAR_CAP_KEEP_ALIVE_MS = 1000;

/** The ranges ACACIA_TRUST_PROXY may name, as proxy-addr (Fastify's trustProxy) defines them. */
const namedRanges: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Whether a peer is a trusted proxy, whose connections carry many clients and are not capped per client. */
function trustedPeer(entries: readonly string[] | undefined): (remoteAddress: string) => boolean {
  const ranges: Range[] = (entries ?? []).flatMap((e) => (namedRanges[e] ?? [e]).map(parseRange));
  if (ranges.length === 0) return () => false;
  return (remoteAddress) => {
    const addr = parseCaller(remoteAddress);
    return addr !== undefined && ranges.some((r) => inRange(addr, r));
  };
}

/**
 * Bounds what connections can hold, on the API and the gateway alike:
 * - at most `maxConnections` open (Node closes further ones at once) and at most
 *   `maxConnectionsPerClient` from one client (closed at once here, before any byte is
 *   read), so one client cannot lock the others out;
 * - from NEAR_CAP_SHARE of the cap on, a connection that falls idle is closed after
 *   NEAR_CAP_KEEP_ALIVE_MS instead of the whole keep-alive, and when a connection is refused
 *   at the cap, the idle ones are closed so the next attempt gets in.
 */
export function limitConnections(app: FastifyInstance, settings: ConnectionSettings): void {
  const closeIdle = boundConnections(app.server, settings);
  app.addHook('preClose', (done) => {
    closeIdle();
    done();
  });
}

/**
 * The bounds above on one server (the gateway's extra ports have servers of their own); returns
 * what closes its kept-alive connections that have no response in flight.
 */
export function boundConnections(server: Server, settings: ConnectionSettings): () => void {
  const { maxConnections, maxConnectionsPerClient, keepAliveTimeoutMs } = settings;
  if (maxConnections > 0) server.maxConnections = maxConnections;
  const nearCap = maxConnections > 0 ? Math.ceil(maxConnections * NEAR_CAP_SHARE) : Infinity;
  const briefKeepAlive = Math.min(keepAliveTimeoutMs, NEAR_CAP_KEEP_ALIVE_MS);
  const trusted = trustedPeer(settings.trustProxy);
  const perClient = new Map<string, number>();
  const sockets = new Set<Socket>();
  let open = 0;

  // Node reads keepAliveTimeout as each response finishes, so a change applies to every
  // connection that falls idle from then on.
  const setKeepAlive = () => {
    server.keepAliveTimeout = open >= nearCap ? briefKeepAlive : keepAliveTimeoutMs;
  };

  server.on('connection', (socket: Socket) => {
    const remote = socket.remoteAddress;
    const client = maxConnectionsPerClient > 0 && remote && !trusted(remote) ? clientOf(remote) : undefined;
    if (client !== undefined) {
      const held = perClient.get(client) ?? 0;
      if (held >= maxConnectionsPerClient) {
        socket.destroy();
        return;
      }
      perClient.set(client, held + 1);
    }
    open++;
    sockets.add(socket);
    setKeepAlive();
    socket.once('close', () => {
      sockets.delete(socket);
      open--;
      setKeepAlive();
      if (client === undefined) return;
      const held = perClient.get(client)! - 1;
      if (held > 0) perClient.set(client, held);
      else perClient.delete(client);
    });
  });
  server.on('drop', () => server.closeIdleConnections());
  // On close, a kept-alive connection with no response in flight is closed at once. Node's
  // own closeIdleConnections was seen to miss one after a client dropped an event stream
  // mid-response on another connection of its pool; it then held the close for its whole
  // idle timeout.
  return () => {
    for (const socket of sockets) {
      if (!(socket as Socket & { _httpMessage?: unknown })._httpMessage) socket.destroy();
    }
  };
}
