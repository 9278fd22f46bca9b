// Part of `npm run lint`: no line over 120 characters in src/, test/, bench/ and console/, where
// Prettier cannot break a line (long strings, comments, template text). A line holding a URL
// may run longer, as ESLint's max-len allows with ignoreUrls.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const MAX = 120;
const DIRS = ['src', 'test', 'bench', 'console'];
const SKIP = new Set(['node_modules', 'dist', 'generated']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|css|html|json)$/;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (TEXT.test(entry.name)) yield full;
  }
}

const long = [];
for (const dir of DIRS)
  for (const file of files(dir))
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if ([...line].length > MAX && !/https?:\/\//.test(line)) long.push(`${file}:${i + 1}: ${[...line].length}`);
      });
if (long.length > 0) {
  process.stderr.write(`${long.length} lines are longer than ${MAX} characters:\n${long.join('\n')}\n`);
  process.exit(1);
}
