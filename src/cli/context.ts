import type { Command } from 'commander';
import { AcaciaClient } from '../client/index.js';
import { UsageError } from './exit-codes.js';
import { profileKey, readProfiles } from './profiles.js';

export const formats = ['table', 'json', 'yaml'] as const;
export type Format = (typeof formats)[number];

/** Where API commands go and with which key. */
export interface Target {
  url: string;
  apiKey: string | undefined;
  /** The profile the target came from, if any. */
  profile: string | undefined;
}

/** The options every API command takes (declared on the program, given before or after the command). */
export interface GlobalOptions {
  url?: string;
  apiKey?: string;
  profile?: string;
  output?: Format;
  quiet?: boolean;
}

export const DEFAULT_URL = 'http://127.0.0.1:8080';

const sameServer = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/**
 * Flags win over ACACIA_URL / ACACIA_API_KEY, which win over the profile (--profile,
 * ACACIA_PROFILE, or the current one). A profile's key is sent only to that profile's server:
 * `--url` pointing elsewhere does not take the key along.
 */
export function resolveTarget(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Target {
  const file = readProfiles();
  const named = opts.profile ?? env.ACACIA_PROFILE;
  if (named !== undefined && !file.profiles[named])
    throw new UsageError(`no profile "${named}" (acacia config list shows them; acacia config set ${named} makes it)`);
  const name = named ?? file.current;
  const profile = name ? file.profiles[name] : undefined;
  const url = opts.url ?? (env.ACACIA_URL || undefined) ?? profile?.url ?? DEFAULT_URL;
  try {
    new URL(url);
  } catch {
    throw new UsageError(`--url "${url}" is not a URL like ${DEFAULT_URL}`);
  }
  // A profile's key file is read only when its key is the one sent.
  const apiKey =
    opts.apiKey ??
    (env.ACACIA_API_KEY || undefined) ??
    (profile && sameServer(profile.url, url) ? profileKey(profile) : undefined);
  return { url, apiKey, profile: profile ? name : undefined };
}

/** Where and how a command prints. */
export interface Output {
  format: Format;
  quiet: boolean;
  /** Writes a result (stdout). */
  out(text: string): void;
  /** Writes progress and notes (stderr), never mixed into results. */
  note(text: string): void;
  /** Whether stderr is a terminal (a live progress line instead of one line per change). */
  interactive: boolean;
}

/** What an API command's action works with. */
export interface Context extends Output {
  client: AcaciaClient;
  target: Target;
}

const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/** The output flags given (-o, -q), applied to stdout and stderr. */
export function outputOf(cmd: Command): Output {
  const opts = cmd.optsWithGlobals<GlobalOptions>();
  return {
    format: opts.output ?? (process.stdout.isTTY ? 'table' : 'json'),
    quiet: opts.quiet === true,
    out: (text) => process.stdout.write(line(text)),
    note: (text) => process.stderr.write(line(text)),
    interactive: process.stderr.isTTY === true,
  };
}

export function contextOf(cmd: Command): Context {
  const target = resolveTarget(cmd.optsWithGlobals<GlobalOptions>());
  return {
    ...outputOf(cmd),
    client: new AcaciaClient({ baseUrl: target.url, ...(target.apiKey ? { apiKey: target.apiKey } : {}) }),
    target,
  };
}
