import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The file, in the data directory, holding the key every data-plane secret is derived from. */
export const SECRET_KEY_FILE = 'data-plane.key';

const keys = new Map<string, Buffer>();

/**
 * An installation key in the data directory (the data-plane key by default): made once
 * (mode 0600) and read by every Acacia process sharing the data directory, so all of them
 * derive the same secrets (any can reach a process another one started, or sign as another would).
 */
export function installationKey(dataDir: string, fileName: string = SECRET_KEY_FILE): Buffer {
  const file = path.join(dataDir, fileName);
  const known = keys.get(file);
  if (known) return known;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) {
    // Written aside and linked into place: a reader never sees a half-written key.
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    fs.writeFileSync(partial, randomBytes(32).toString('base64url'), { mode: 0o600 });
    try {
      fs.linkSync(partial, file);
    } catch (err) {
      // Another process made it first: use that one.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(partial, { force: true });
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  if (key.length < 32) throw new Error(`${file} does not hold an installation key; remove it to make a new one`);
  keys.set(file, key);
  return key;
}

/**
 * The secret shared by the gateway and one workspace's data-plane process: derived, never
 * stored, so the store holds no credential of the data plane and each process knows only its own.
 */
export function dataPlaneSecret(dataDir: string, workspaceId: string): string {
  return createHmac('sha256', installationKey(dataDir)).update(`workspace:${workspaceId}`).digest('base64url');
}
