import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

/** Builds the console into dist/console unless a build newer than every source file is there. */
export function ensureConsoleBuilt(): void {
  if (existsSync(consoleIndex) && statSync(consoleIndex).mtimeMs >= newestIn(sources)) return;
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
}
