import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { outputOf } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { render } from '../output.js';
import { profilePath, readProfiles, redactKey, writeProfiles } from '../profiles.js';

/** A key from a file (or `-`, standard input): the first line, so a file made by `echo` works. */
function keyFromFile(file: string): string {
  const text = readFileSync(file === '-' ? 0 : file, 'utf8')
    .split('\n')[0]!
    .trim();
  if (!text) throw new UsageError(`--api-key-file ${file} holds no key`);
  return text;
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
    .option('--api-key-file <file>', 'read the API key from this file (- for standard input)')
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
      const apiKey = opts.apiKeyFile !== undefined ? keyFromFile(opts.apiKeyFile) : (opts.apiKey ?? existing?.api_key);
      file.profiles[name] = { url, ...(apiKey ? { api_key: apiKey } : {}) };
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
        current: name === file.current,
      }));
      render(outputOf(cmd), rows, {
        id: (r) => r.name,
        columns: [
          ['', (r) => (r.current ? '*' : '')],
          ['PROFILE', (r) => r.name],
          ['URL', (r) => r.url],
          ['API_KEY', (r) => r.api_key],
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
