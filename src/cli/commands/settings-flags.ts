import { Option, type Command } from 'commander';
import { loadConfig, settings, type Config } from '../../config.js';

export type Flags = Record<string, string | undefined>;

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Flags override environment variables; both go through the same validation. */
export function configFrom(flags: Flags): Readonly<Config> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const s of settings) {
    const value = flags[camel(s.flag)];
    if (value !== undefined) env[s.env] = value;
  }
  return loadConfig(env);
}

/** A flag for each setting (or those named), described by the settings table. */
export function addSettingFlags(cmd: Command, only?: readonly string[]): Command {
  for (const s of settings) {
    if (only && !only.includes(s.env)) continue;
    const def = s.def === undefined ? '' : `, default: ${s.def}`;
    cmd.addOption(new Option(`--${s.flag} <value>`, `${s.help} (env: ${s.env}${def})`));
  }
  return cmd;
}
