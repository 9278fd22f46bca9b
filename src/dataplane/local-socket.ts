import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * Data-plane processes that share a host with the gateway also listen on a Unix socket beside
 * their TCP port. A request through the gateway takes two hops on the host, and over loopback
 * TCP each costs both ends the TCP stack's work; a Unix socket is the cheaper hop. The folder is
 * the installation's own (mode 0700), so no other local user can connect at all.
 */
export const socketFolder = (dataDir: string): string => path.join(dataDir, 'sockets');

/**
 * The longest socket path this module makes: a Unix socket's address holds 108 bytes on
 * Linux and 104 on macOS, with the terminating zero.
 */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * The socket of the process whose TCP port is `port`. Named by the port, which no two live
 * processes on a host share, so a process never takes another's socket; undefined where the
 * path would be too long to bind, and then the TCP port is the only way in.
 */
export function socketPath(folder: string, port: number): string | undefined {
  const file = path.join(folder, `${port}.sock`);
  return Buffer.byteLength(file) <= MAX_SOCKET_PATH_BYTES ? file : undefined;
}

/**
 * Listens on the socket for `port` in `folder` and hands each connection to `server`, which
 * serves it as one on its TCP port (same timeouts, same idle-connection closing).
 * A file left there by a process that ended without closing is removed first: the port is
 * this process's now. Closing the returned server removes the file. Undefined when the path
 * is too long.
 */
export function listenOnSocket(
  server: net.Server,
  folder: string,
  port: number,
  onError: (err: Error) => void,
): net.Server | undefined {
  const file = socketPath(folder, port);
  if (!file) return undefined;
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.rmSync(file, { force: true });
  const local = net.createServer((connection) => server.emit('connection', connection));
  local.on('error', onError);
  local.listen(file);
  return local;
}
