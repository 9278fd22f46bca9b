import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { AcaciaApiError, resultOf } from '../../client/index.js';
import { apiCommand } from '../api-command.js';
import { contextOf } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { fields, render } from '../output.js';

/** The commands that act on the whole instance (docs/testing.md, docs/snapshots.md). */
export function instanceCommands(program: Command): void {
  apiCommand(program, {
    verb: 'reset',
    endpoint: 'resetInstance',
    description:
      'Empty the instance but for its bootstrap organisation and key (test mode only: ACACIA_CLOCK=manual ' +
      'or ACACIA_FAULT_INJECTION=on)',
    view: fields('now'),
  });

  const snapshot = program
    .command('snapshot')
    .description('The whole instance in one file: state and graph data (docs/snapshots.md)');

  snapshot
    .command('save')
    .description('Save the whole instance to FILE (gzip; written beside it first, then renamed)')
    .argument('<file>', 'the snapshot file to write')
    .action(async (file: string, _opts: unknown, command: Command) => {
      const ctx = contextOf(command);
      const answer = await ctx.client.downloadSnapshot();
      if (!('body' in answer)) throw new AcaciaApiError(answer.error);
      const partial = `${file}.partial`;
      try {
        await pipeline(answer.body, createWriteStream(partial, { mode: 0o600 }));
        await fs.rename(partial, file);
      } catch (err) {
        await fs.rm(partial, { force: true });
        throw err;
      }
      const { size } = await fs.stat(file);
      render(ctx, { file, size_bytes: size }, fields('file', 'size_bytes'));
    });

  snapshot
    .command('load')
    .description(
      'Replace the whole instance with the snapshot in FILE (test mode only); a damaged, truncated or ' +
        'foreign file is refused and changes nothing',
    )
    .argument('<file>', 'a file `acacia snapshot save` wrote')
    .action(async (file: string, _opts: unknown, command: Command) => {
      const ctx = contextOf(command);
      try {
        await fs.access(file);
      } catch {
        throw new UsageError(`cannot read ${file}`);
      }
      const result = resultOf(await ctx.client.uploadSnapshot(createReadStream(file)));
      render(ctx, result, fields('created_at', 'schema', 'store', 'rows', 'files'));
    });
}
