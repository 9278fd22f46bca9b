import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sources = path.join(root, 'console');
export const consoleIndex = path.join(root, 'dist', 'console', 'index.html');

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const fresh = () => existsSync(consoleIndex) && statSync(consoleIndex).mtimeMs >= newestIn(sources);

/**
 * Held (a directory, as making one is atomic) by the process that builds, so that test files
 * running in parallel do not build over each other or read a half-written build. A lock older
 * than a build can take is left from a process that died, and is taken over.
 */
const lock = path.join(root, 'dist', '.console-build.lock');
const STALE_LOCK_MS = 5 * 60_000;

function lockAge(): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Builds the console into dist/console unless a build newer than every source file is there.
 * `npm test` calls this once before any test file runs; files run on their own call it too.
 */
export function ensureConsoleBuilt(): void {
  if (fresh()) return;
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (lockAge() > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    // Another process is building: wait for it (synchronously, as callers are), then look again.
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    if (fresh()) return;
    execFileSync(
      process.execPath,
      [
        path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--config',
        path.join(sources, 'vite.config.ts'),
        '--logLevel',
        'warn',
      ],
      {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
