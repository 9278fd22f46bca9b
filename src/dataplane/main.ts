/**
 * The data-plane process: serves one graph store file over loopback HTTP.
 *
 *   node main.js --store <file> --secret-fd <n> [--port 0] [--host 127.0.0.1] [--read-only]
 *                [--tg-version 4.2.1] [--body-limit <bytes>] [--gsql-output-limit <bytes>] [--watch-parent]
 *                [--socket-folder <dir>]
 *
 * The shared secret is read from file descriptor <n> (a pipe the launcher writes it to and
 * closes, or `3< file` by hand), never from the command line or the environment, which other
 * local users can read for as long as the process runs. Once listening, the process writes one JSON
 * line on stdout: {"event":"listening","host":…,"port":…,"pid":…}. With --socket-folder it
 * also listens on the Unix socket `<dir>/<port>.sock` (local-socket.ts). Logs are JSON lines on
 * stderr. SIGTERM or SIGINT: stop accepting, finish in-flight requests, close the store, exit 0.
 */
import fs from 'node:fs';
import type { Server } from 'node:net';
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { UPLOAD_LIMIT, uploadFolder } from './data-folder.js';
import { GraphStore } from './graph-store.js';
import { registerGsql } from './gsql-routes.js';
import { createServer } from './http-server.js';
import { listenOnSocket } from './local-socket.js';
import { RequestFigures } from './request-figures.js';
import { registerRestpp } from './restpp-routes.js';
import { registerStats } from './stats-route.js';
import { BackgroundCheckpoints } from './wal-checkpoints.js';

function log(level: 'info' | 'error', msg: string, extra: Record<string, unknown> = {}): void {
  process.stderr.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, msg, ...extra })}\n`,
  );
}

function errorInfo(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { err: { message: err.message, stack: err.stack } } : { err: String(err) };
}

/** The secret: all the descriptor holds, up to its end, without a trailing line break. */
async function readSecret(fd: number): Promise<string> {
  return (await text(fs.createReadStream('', { fd }))).replace(/\r?\n$/, '');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      store: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      'read-only': { type: 'boolean', default: false },
      'tg-version': { type: 'string', default: '4.2.1' },
      'body-limit': { type: 'string', default: String(32 * 1024 * 1024) },
      'upload-limit': { type: 'string', default: String(UPLOAD_LIMIT) },
      'gsql-output-limit': { type: 'string', default: String(16 * 1024 * 1024) },
      'watch-parent': { type: 'boolean', default: false },
      'secret-fd': { type: 'string' },
      'socket-folder': { type: 'string' },
    },
    strict: true,
  });
  const secretFd = Number(values['secret-fd']);
  const secret = Number.isInteger(secretFd) && secretFd >= 0 ? await readSecret(secretFd) : undefined;
  const port = Number(values.port);
  const bodyLimit = Number(values['body-limit']);
  const uploadLimit = Number(values['upload-limit']);
  const gsqlOutputLimit = Number(values['gsql-output-limit']);
  const problems = [
    !values.store && '--store <file> is required',
    !secret && '--secret-fd <n> must name a descriptor that holds the shared secret',
    !(Number.isInteger(port) && port >= 0 && port <= 65535) && '--port must be 0 to 65535',
    !(Number.isInteger(bodyLimit) && bodyLimit > 0) && '--body-limit must be a positive number of bytes',
    !(Number.isInteger(uploadLimit) && uploadLimit > 0) && '--upload-limit must be a positive number of bytes',
    !(Number.isInteger(gsqlOutputLimit) && gsqlOutputLimit > 0) &&
      '--gsql-output-limit must be a positive number of bytes',
    !/^\d+\.\d+\.\d+$/.test(values['tg-version']!) && '--tg-version must look like 4.2.1',
  ].filter(Boolean);
  if (problems.length > 0) {
    log('error', 'cannot start', { problems });
    process.exit(2);
  }

  const store = GraphStore.open(values.store!, { readOnly: values['read-only'] });
  // Uploads a stopped process was loading: their requests ended with it.
  if (!values['read-only']) fs.rmSync(uploadFolder(store), { recursive: true, force: true });
  const checkpoints = values['read-only'] ? undefined : BackgroundCheckpoints.attach(store);
  const figures = new RequestFigures();
  const server = createServer(
    {
      store,
      secret: secret!,
      tgVersion: values['tg-version']!,
      bodyLimit,
      uploadLimit,
      gsqlOutputLimit,
      logError: (msg, err) => log('error', msg, errorInfo(err)),
      figures,
    },
    (router) => {
      registerRestpp(router);
      registerGsql(router);
      registerStats(router, figures);
    },
  );

  let stopping = false;
  let local: Server | undefined;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log('info', 'stopping', { reason });
    local?.close();
    server.close(() => {
      const closed = checkpoints?.close() ?? Promise.resolve();
      void closed.finally(() => {
        store.close();
        process.exit(0);
      });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (values['watch-parent']) {
    // The parent holds the other end of stdin: end of input means the parent is gone.
    process.stdin.on('end', () => stop('parent exited'));
    process.stdin.on('error', () => stop('parent exited'));
    process.stdin.resume();
  }

  server.listen(port, values.host, () => {
    const address = server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    const folder = values['socket-folder'];
    // A faster way in for the gateway, bound (synchronously) before the process says it
    // listens; without it the TCP port serves all the same.
    if (folder)
      local = listenOnSocket(server, folder, bound, (err) =>
        log('error', 'cannot listen on the local socket', errorInfo(err)),
      );
    process.stdout.write(
      `${JSON.stringify({ event: 'listening', host: values.host, port: bound, pid: process.pid })}\n`,
    );
    log('info', 'listening', {
      host: values.host,
      port: bound,
      socket: local ? local.address() : undefined,
      store: values.store,
      readOnly: values['read-only'],
    });
  });
  server.on('error', (err) => {
    log('error', 'cannot listen', errorInfo(err));
    store.close();
    process.exit(1);
  });
}

main().catch((err: unknown) => {
  log('error', 'cannot start', errorInfo(err));
  process.exit(1);
});
