import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { profilePath, readProfiles, writeProfiles } from './profiles.js';

/** A path as the operator would type it from here: relative when under the current directory. */
export const shown = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
};

/** The profile `serve` keeps pointing at the server it started. */
export const LOCAL_PROFILE = 'local';

/**
 * The command that makes a CLI profile of this server. It names where the key is, never the
 * key itself: the bootstrap key file, the variable it was given in, or a placeholder.
 */
export function profileLine(config: Readonly<Config>, url: string): string {
  const keyFile = path.join(config.dataDir, 'bootstrap-key');
  const key = config.bootstrapApiKey
    ? process.env.ACACIA_BOOTSTRAP_API_KEY === config.bootstrapApiKey
      ? '--api-key "$ACACIA_BOOTSTRAP_API_KEY"'
      : '--api-key <the key given as --bootstrap-api-key>'
    : existsSync(keyFile)
      ? `--api-key-file ${shown(keyFile)}`
      : '--api-key <an API key of your organisation>';
  return `npx acacia config set local --url ${url} ${key} --use`;
}

/**
 * Points the profile `local` at this server: its URL and, when the key is in the bootstrap
 * key file, that file (the key stays in it). Other profiles are left alone, and so is the
 * choice of the current one, unless there is none. A key given in the environment is not
 * written anywhere: the profile then has the URL only. Returns a line saying what was done.
 */
export function updateLocalProfile(config: Readonly<Config>, url: string): string {
  const keyFile = path.join(config.dataDir, 'bootstrap-key');
  const withFile = config.bootstrapApiKey === undefined && existsSync(keyFile);
  try {
    const file = readProfiles();
    file.profiles[LOCAL_PROFILE] = { url, ...(withFile ? { api_key_file: keyFile } : {}) };
    if (!file.current || !file.profiles[file.current]) file.current = LOCAL_PROFILE;
    writeProfiles(file);
    const current = file.current === LOCAL_PROFILE ? ' (current)' : ` (the current one stays ${file.current})`;
    const key = withFile ? `key file ${shown(keyFile)}` : 'no key: give one with --api-key or ACACIA_API_KEY';
    return `"${LOCAL_PROFILE}"${current}: ${url}, ${key}`;
  } catch (err) {
    // The server runs without it; the line below says how to make it by hand.
    return `"${LOCAL_PROFILE}" not written (${profilePath()}: ${(err as Error).message})`;
  }
}
