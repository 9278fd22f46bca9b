#!/usr/bin/env node
// The `acacia` command: runs the compiled CLI (npm install / npm ci build it via `prepare`).
try {
  await import('../dist/cli/index.js');
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli')) {
    console.error('acacia: dist/ is missing; run `npm run build` (npm install does it for you).');
    process.exit(1);
  }
  throw err;
}
