import path from 'node:path';
import type { Command } from 'commander';
import { outputOf } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { render } from '../output.js';
import { profilePath, readKeyFile, readProfiles, redactKey, writeProfiles, type Profile } from '../profiles.js';

interface KeyOptions {
  apiKey?: string;
  apiKeyFile?: string;
}

/**
 * Where a profile's key comes from: a file is named, not copied (it is read, to check it, and
 * read again at each use), so the key stays where it was put; standard input has no file to
 * name, so that key, and one given with --api-key, is kept in the profile.
 */
function keySource(opts: KeyOptions, existing: Profile | undefined): Pick<Profile, 'api_key' | 'api_key_file'> {
  if (opts.apiKeyFile === '-') return { api_key: readKeyFile('-') };
  if (opts.apiKeyFile !== undefined) {
    readKeyFile(opts.apiKeyFile);
    return { api_key_file: path.resolve(opts.apiKeyFile) };
  }
  if (opts.apiKey !== undefined) return { api_key: opts.apiKey };
  const { api_key, api_key_file } = existing ?? {};
  return { ...(api_key ? { api_key } : {}), ...(api_key_file ? { api_key_file } : {}) };
}

export function configCommands(program: Command): void {
  const config = program
    .command('config')
    .description(`Named profiles (server URL and API key) in ${profilePath()} (mode 0600)`);

  config
    .command('set')
    .description('Create or change a profile; the first one made becomes the current one')
    .argument('<profile>', 'profile name')
    .option('--url <url>', 'the API address, e.g. http://127.0.0.1:8080')
    .option('--api-key <key>', 'the API key (prefer --api-key-file: a command line is seen by others)')
    .option('--api-key-file <file>', 'read the API key from this file at each use (- : standard input, kept)')
    .option('--use', 'make it the current profile')
    .action((name: string, _opts: unknown, cmd: Command) => {
      // --url and --api-key are the program's own flags too: read them wherever they were given.
      const opts = cmd.optsWithGlobals<{ url?: string; apiKey?: string; apiKeyFile?: string; use?: boolean }>();
      const file = readProfiles();
      const existing = file.profiles[name];
      const url = opts.url ?? existing?.url;
      if (!url) throw new UsageError(`--url is required for a new profile`);
      try {
        new URL(url);
      } catch {
        throw new UsageError(`--url "${url}" is not a URL like http://127.0.0.1:8080`);
      }
      file.profiles[name] = { url, ...keySource(opts, existing) };
      if (opts.use || !file.current || !file.profiles[file.current]) file.current = name;
      writeProfiles(file);
      process.stderr.write(`profile "${name}" saved${file.current === name ? ' (current)' : ''}\n`);
    });

  config
    .command('use')
    .description('Make a profile the current one')
    .argument('<profile>', 'profile name')
    .action((name: string) => {
      const file = readProfiles();
      if (!file.profiles[name]) throw new UsageError(`no profile "${name}"`);
      file.current = name;
      writeProfiles(file);
      process.stderr.write(`using profile "${name}"\n`);
    });

  config
    .command('list')
    .alias('ls')
    .description('The profiles (keys redacted); * marks the current one')
    .action((_opts: unknown, cmd: Command) => {
      const file = readProfiles();
      const rows = Object.entries(file.profiles).map(([name, p]) => ({
        name,
        url: p.url,
        api_key: redactKey(p.api_key),
        ...(p.api_key_file !== undefined ? { api_key_file: p.api_key_file } : {}),
        current: name === file.current,
      }));
      render(outputOf(cmd), rows, {
        id: (r) => r.name,
        columns: [
          ['', (r) => (r.current ? '*' : '')],
          ['PROFILE', (r) => r.name],
          ['URL', (r) => r.url],
          ['API_KEY', (r) => r.api_key_file ?? r.api_key],
        ],
      });
    });

  config
    .command('delete')
    .alias('rm')
    .description('Remove a profile')
    .argument('<profile>', 'profile name')
    .action((name: string) => {
      const file = readProfiles();
      if (!file.profiles[name]) throw new UsageError(`no profile "${name}"`);
      delete file.profiles[name];
      if (file.current === name) delete file.current;
      writeProfiles(file);
      process.stderr.write(`profile "${name}" removed\n`);
    });
}
