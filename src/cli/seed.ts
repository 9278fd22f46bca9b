import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { AcaciaClient } from '../client/index.js';
import type { Config } from '../config.js';
import { UsageError } from './exit-codes.js';
import { applyState, readState } from './state/index.js';

/** The files a seed path names: the file itself, or a folder's *.yaml and *.yml in name order. */
export function seedFiles(seed: string): string[] {
  if (!existsSync(seed)) throw new UsageError(`seed ${seed}: no such file or folder`);
  if (!statSync(seed).isDirectory()) return [seed];
  return readdirSync(seed)
    .filter((f) => /\.ya?ml$/i.test(f))
    .sort()
    .map((f) => path.join(seed, f));
}

/** The org-admin key the seed is applied with: the bootstrap key, given or saved in the data folder. */
function seedKey(config: Readonly<Config>): string {
  if (config.bootstrapApiKey) return config.bootstrapApiKey;
  const file = path.join(config.dataDir, 'bootstrap-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new UsageError(
    'seeding needs the bootstrap key of organisation default: give ACACIA_BOOTSTRAP_API_KEY, ' + `or keep ${file}`,
  );
}

/**
 * Applies the seed (ACACIA_SEED, `serve --seed`) to a server that has just started, through
 * the API as `acacia apply` does. Every file is checked before the first is applied. A seed
 * that fails closes the server and rethrows, so `serve` ends non-zero without reporting ready.
 */
export async function seedServer(
  config: Readonly<Config>,
  server: { url: string; close(): Promise<void> },
  note: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<void> {
  if (!config.seed) return;
  try {
    const files = seedFiles(config.seed).map((file) => ({ file, state: readState(file) }));
    const client = new AcaciaClient({ baseUrl: server.url, apiKey: seedKey(config) });
    for (const { file, state } of files) {
      const plan = await applyState(client, state, { source: file });
      const s = plan.summary;
      note(`Seeded from ${file}: ${s.create} created, ${s.update} updated, ${s.unchanged} unchanged`);
    }
  } catch (err) {
    await server.close().catch(() => {});
    if (err instanceof UsageError) throw new UsageError(`seed failed: ${err.message}`, err.code);
    throw err;
  }
}
