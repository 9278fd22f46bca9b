import { apiOperations, operationTags, type OperationId } from '../schemas/operations/index.js';
import { API_PREFIX } from '../schemas/envelope.js';
import { commandOf } from './api-command.js';
import { buildCli } from './main.js';

/**
 * Every route of the operation table with the CLI command that calls it, as a Markdown table
 * (README.md's route table is this, between its `routes` markers: src/cli/doc-tables.ts).
 */
export function routeTable(): string {
  buildCli();
  const rows = (Object.keys(apiOperations) as OperationId[]).map((id) => {
    const op = apiOperations[id];
    const path = op.path.startsWith(API_PREFIX) ? op.path.slice(API_PREFIX.length) : op.path;
    const command = commandOf.get(id);
    const cli = command ? `\`acacia ${command}\`` : '—';
    return { tag: op.tags[0], cells: [op.method, `\`${path}\``, cli, op.summary] };
  });
  const order = operationTags.map((t) => t.name);
  rows.sort((a, b) => order.indexOf(a.tag) - order.indexOf(b.tag));
  const lines = ['| method | path | CLI | what it does |', '| --- | --- | --- | --- |'];
  for (const r of rows) lines.push(`| ${r.cells.join(' | ')} |`);
  return lines.join('\n');
}
