import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { DATA_PLANE_SECRET_HEADER } from './http-server.js';
import { isPidAlive } from '../process-alive.js';

export { isPidAlive };

export interface StartOptions {
  /** The store file to serve; created when missing unless read-only. */
  storeFile: string;
  /** Serve the file read-only (a snapshot) and refuse writes. */
  readOnly?: boolean;
  /** Shared secret the caller (the gateway) sends in DATA_PLANE_SECRET_HEADER. */
  secret: string;
  /** Loopback port; 0 (default) picks a free one. */
  port?: number;
  host?: string;
  /** TigerGraph version to report, e.g. the workspace's `tg_version`. */
  tgVersion?: string;
  /** Largest request body, in bytes (default 32 MiB). */
  bodyLimitBytes?: number;
  /** Largest body of `POST /restpp/ddl`, written to disk as it arrives (default 128,000,000 bytes). */
  uploadLimitBytes?: number;
  /** The most the process prints for one GSQL request, in bytes (default 16 MiB). */
  gsqlOutputLimitBytes?: number;
  /** V8's old-generation heap limit for the process, in MiB (default: Node's own). */
  maxHeapMb?: number;
  /**
   * Where the process also listens on a Unix socket, `<folder>/<port>.sock` (local-socket.ts):
   * the gateway's cheaper way in. Without it, the TCP port only.
   */
  socketFolder?: string;
  /** How long to wait for the process to listen and answer (default 15 s). */
  startTimeoutMs?: number;
  /** Each line the process logs on stderr (JSON). */
  onLog?: (line: string) => void;
  /** Called once when the process exits, whatever the cause. */
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface DataPlaneProcess {
  readonly pid: number;
  readonly host: string;
  readonly port: number;
  /** `http://host:port` */
  readonly url: string;
  readonly storeFile: string;
  readonly readOnly: boolean;
  /** False once the process has exited (or been killed). */
  isAlive(): boolean;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL when it has not exited after `graceMs` (default 5 s). */
  stop(graceMs?: number): Promise<void>;
}

export class DataPlaneStartError extends Error {}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * How to run main: the compiled main.js with plain node, or main.ts through tsx when this
 * module itself runs from the sources (tests, `npx tsx`).
 */
function entry(): string[] {
  if (import.meta.url.endsWith('.ts')) return ['--import', import.meta.resolve('tsx'), path.join(here, 'main.ts')];
  return [path.join(here, 'main.js')];
}

/** The descriptor the child reads its secret from: the first after stdin, stdout and stderr. */
const SECRET_FD = 3;

/**
 * What the child's environment holds: where to find programs and temporary files, nothing of
 * Acacia's own (its keys, the store's URL). Other processes of the user can read a process's
 * environment, for as long as it runs.
 */
const passedOn = ['PATH', 'TMPDIR', 'SYSTEMROOT'];

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of passedOn) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** Starts a data-plane process and resolves once it listens and answers `GET /api/ping`. */
export async function startDataPlane(opts: StartOptions): Promise<DataPlaneProcess> {
  const host = opts.host ?? '127.0.0.1';
  const args = [
    ...(opts.maxHeapMb !== undefined ? [`--max-old-space-size=${opts.maxHeapMb}`] : []),
    // A query's memory guard collects garbage before it judges the heap (query/memory-guard.ts).
    '--expose-gc',
    ...entry(),
    '--store',
    opts.storeFile,
    '--port',
    String(opts.port ?? 0),
    '--host',
    host,
    '--tg-version',
    opts.tgVersion ?? '4.2.1',
    '--body-limit',
    String(opts.bodyLimitBytes ?? 32 * 1024 * 1024),
    ...(opts.uploadLimitBytes === undefined ? [] : ['--upload-limit', String(opts.uploadLimitBytes)]),
    '--gsql-output-limit',
    String(opts.gsqlOutputLimitBytes ?? 16 * 1024 * 1024),
    '--watch-parent',
    '--secret-fd',
    String(SECRET_FD),
    ...(opts.readOnly ? ['--read-only'] : []),
    ...(opts.socketFolder === undefined ? [] : ['--socket-folder', opts.socketFolder]),
  ];
  // stdin stays open as a pipe: the child exits when it closes, so it never outlives its parent.
  // The secret goes down a pipe of its own, closed once written: in no environment, no argument.
  const child = spawn(process.execPath, args, { env: childEnv(), stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
  const secretPipe = child.stdio[SECRET_FD] as Writable;
  // A child that died at once closes its end; its exit is what gets reported.
  secretPipe.on('error', () => undefined);
  secretPipe.end(opts.secret, () => secretPipe.destroy());
  const exited = once(child, 'exit').then(([code, signal]) => {
    opts.onExit?.(code as number | null, signal as NodeJS.Signals | null);
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  const stderrTail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderrTail.push(line);
    if (stderrTail.length > 20) stderrTail.shift();
    opts.onLog?.(line);
  });

  const exitedEarly = exited.then(({ code, signal }) => {
    throw new DataPlaneStartError(
      `the data-plane process exited (${signal ?? `code ${code}`}) before listening: ${stderrTail.join(' | ')}`,
    );
  });
  // Only the start-up race below cares; an exit after start is reported through `exited`.
  exitedEarly.catch(() => undefined);

  const timeoutMs = opts.startTimeoutMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const port = await Promise.race([
      firstLine(child),
      exitedEarly,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DataPlaneStartError(`the data-plane process did not listen within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    await ping(url, opts.secret);
    clearTimeout(timer);
    return handle(child, { host, port, url, storeFile: opts.storeFile, readOnly: opts.readOnly ?? false }, exited);
  } catch (err) {
    clearTimeout(timer);
    child.kill('SIGKILL');
    throw err;
  }
}

/** The port from the first stdout line, `{"event":"listening",…}`. */
function firstLine(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      child.stdout!.resume();
      try {
        const msg = JSON.parse(line) as { event?: string; port?: number };
        if (msg.event === 'listening' && typeof msg.port === 'number') return resolve(msg.port);
      } catch {
        // fall through
      }
      reject(new DataPlaneStartError(`unexpected first line from the data-plane process: ${line.slice(0, 200)}`));
    });
  });
}

async function ping(url: string, secret: string): Promise<void> {
  const res = await fetch(`${url}/api/ping`, { headers: { [DATA_PLANE_SECRET_HEADER]: secret } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new DataPlaneStartError(`the data-plane process answered /api/ping with ${res.status}`);
}

function handle(
  child: ChildProcess,
  info: { host: string; port: number; url: string; storeFile: string; readOnly: boolean },
  exited: DataPlaneProcess['exited'],
): DataPlaneProcess {
  let alive = true;
  void exited.then(() => (alive = false));
  return {
    ...info,
    pid: child.pid!,
    exited,
    isAlive: () => alive,
    async stop(graceMs = 5000) {
      if (!alive) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** SIGTERM, then SIGKILL after `graceMs`, for a process known only by its id; resolves once it is gone. */
export async function stopPid(pid: number, graceMs = 5000, pollMs = 50): Promise<void> {
  if (!isPidAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (isPidAlive(pid)) {
    if (Date.now() >= deadline) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
