// Writes the /openapi.json a server serves: starts one on a fresh SQLite store in a temporary
// directory (both ports picked free), fetches the document, stops it and removes the store.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/main.js';

const out = process.argv[2];
if (!out) {
  console.error('usage: export-openapi.ts <file>');
  process.exit(2);
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'acacia-openapi-'));
const server = await startServer(
  loadConfig({ ACACIA_PORT: '0', ACACIA_GATEWAY_PORT: '0', ACACIA_DATA_DIR: dataDir, ACACIA_LOG_LEVEL: 'silent' }),
  { notice: () => undefined },
);
try {
  const res = await fetch(`${server.url}/openapi.json`);
  if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
  writeFileSync(out, `${JSON.stringify(await res.json(), null, 2)}\n`);
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
