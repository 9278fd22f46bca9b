/**
 * The data-plane process: serves one graph store file over loopback HTTP.
 *
 *   node main.js --store <file> [--port 0] [--host 127.0.0.1] [--read-only]
 *                [--tg-version 4.2.1] [--body-limit <bytes>] [--watch-parent]
 *
 * The shared secret comes from the environment (ACACIA_DATA_PLANE_SECRET), never from the
 * command line, which other local users can read. Once listening, the process writes one JSON
 * line on stdout: {"event":"listening","host":…,"port":…,"pid":…}. Logs are JSON lines on
 * stderr. SIGTERM or SIGINT: stop accepting, finish in-flight requests, close the store, exit 0.
 */
import { parseArgs } from 'node:util';
import { GraphStore } from './graph-store.js';
import { registerGsql } from './gsql-routes.js';
import { createServer, SECRET_ENV } from './http-server.js';
import { registerRestpp } from './restpp-routes.js';

function log(level: 'info' | 'error', msg: string, extra: Record<string, unknown> = {}): void {
  process.stderr.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, msg, ...extra })}\n`,
  );
}

function errorInfo(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { err: { message: err.message, stack: err.stack } } : { err: String(err) };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      store: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      'read-only': { type: 'boolean', default: false },
      'tg-version': { type: 'string', default: '4.2.1' },
      'body-limit': { type: 'string', default: String(32 * 1024 * 1024) },
      'watch-parent': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const secret = process.env[SECRET_ENV];
  delete process.env[SECRET_ENV];
  const port = Number(values.port);
  const bodyLimit = Number(values['body-limit']);
  const problems = [
    !values.store && '--store <file> is required',
    !secret && `${SECRET_ENV} must hold the shared secret`,
    !(Number.isInteger(port) && port >= 0 && port <= 65535) && '--port must be 0 to 65535',
    !(Number.isInteger(bodyLimit) && bodyLimit > 0) && '--body-limit must be a positive number of bytes',
    !/^\d+\.\d+\.\d+$/.test(values['tg-version']!) && '--tg-version must look like 4.2.1',
  ].filter(Boolean);
  if (problems.length > 0) {
    log('error', 'cannot start', { problems });
    process.exit(2);
  }

  const store = GraphStore.open(values.store!, { readOnly: values['read-only'] });
  const server = createServer(
    {
      store,
      secret: secret!,
      tgVersion: values['tg-version']!,
      bodyLimit,
      logError: (msg, err) => log('error', msg, errorInfo(err)),
    },
    (router) => {
      registerRestpp(router);
      registerGsql(router);
    },
  );

  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log('info', 'stopping', { reason });
    server.close(() => {
      store.close();
      process.exit(0);
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
    process.stdout.write(
      `${JSON.stringify({ event: 'listening', host: values.host, port: bound, pid: process.pid })}\n`,
    );
    log('info', 'listening', { host: values.host, port: bound, store: values.store, readOnly: values['read-only'] });
  });
  server.on('error', (err) => {
    log('error', 'cannot listen', errorInfo(err));
    store.close();
    process.exit(1);
  });
}

try {
  main();
} catch (err) {
  log('error', 'cannot start', errorInfo(err));
  process.exit(1);
}
