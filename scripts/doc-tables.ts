// Writes a table the code makes between its markers in a Markdown file, formatted as
// `npm run format` would (src/cli/doc-tables.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { withTable } from '../src/cli/doc-tables.js';

export async function writeTable(file: URL, name: string, table: string): Promise<void> {
  const next = withTable(readFileSync(file, 'utf8'), name, table);
  if (next === undefined)
    throw new Error(`${file.pathname} has no <!-- ${name}:start --> … <!-- ${name}:end --> markers`);
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(next, { ...options, parser: 'markdown' }));
}
