import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { UsageError } from './exit-codes.js';

/** A named target: the API's address and the key sent to it (and to nothing else). */
export interface Profile {
  url: string;
  /** The key itself: given with --api-key, or on standard input. */
  api_key?: string;
  /** The file the key is read from at each use (--api-key-file): the key stays in it alone. */
  api_key_file?: string;
}

/** A key from a file (or `-`, standard input): its first line, so a file made by `echo` works. */
export function readKeyFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the API key from ${file}: ${(err as Error).message}`);
  }
  const key = text.split('\n')[0]!.trim();
  if (!key) throw new UsageError(`${file} holds no API key`);
  return key;
}

/** The key a profile sends: its own, or its file's as the file is now. */
export function profileKey(profile: Profile): string | undefined {
  return profile.api_key_file !== undefined ? readKeyFile(profile.api_key_file) : profile.api_key;
}

export interface ProfileFile {
  current?: string;
  profiles: Record<string, Profile>;
}

/** `$XDG_CONFIG_HOME/acacia/config.json`, or `~/.config/acacia/config.json`. */
export function profilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(homedir(), '.config');
  return path.join(base, 'acacia', 'config.json');
}

export function readProfiles(file = profilePath()): ProfileFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw err;
  }
  try {
    const data = JSON.parse(text) as ProfileFile;
    return { ...data, profiles: data.profiles ?? {} };
  } catch (err) {
    throw new UsageError(`${file} is not valid JSON (${(err as Error).message}); fix or remove it`);
  }
}

/**
 * Writes the file readable by its owner only (it may hold API keys), whatever the umask: a
 * temporary file made 0600 is renamed over the old one, so a reader never sees half of it.
 */
export function writeProfiles(data: ProfileFile, file = profilePath()): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** `acacia_sk_abcd…wxyz`: enough to tell keys apart, never enough to use one. */
export function redactKey(key: string | undefined): string {
  if (!key) return '';
  return key.length <= 16 ? '…' : `${key.slice(0, 14)}…${key.slice(-4)}`;
}
