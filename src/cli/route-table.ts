import { apiOperations, operationTags, type OperationId } from '../schemas/operations/index.js';
import { API_PREFIX } from '../schemas/envelope.js';
import { commandOf } from './api-command.js';
import { buildCli } from './main.js';

/**
 * Every route of the operation table with the CLI command that calls it, as a Markdown table
 * (README.md's route table is this, and a test keeps it so).
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

const START = /<!-- routes:start[^>]*-->/;
const END = '<!-- routes:end -->';

/** The rows of the table between README's route markers, as cells (alignment ignored). */
export function tableRows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim()),
    );
}

/** README with the route table between its markers replaced; undefined when the markers are missing. */
export function withRouteTable(readme: string, table: string): string | undefined {
  const start = START.exec(readme);
  const end = readme.indexOf(END);
  if (!start || end < start.index) return undefined;
  return `${readme.slice(0, start.index + start[0].length)}\n\n${table}\n\n${readme.slice(end)}`;
}

/** The table now between README's markers. */
export function readmeRouteTable(readme: string): string {
  const start = START.exec(readme);
  const end = readme.indexOf(END);
  return start && end > start.index ? readme.slice(start.index + start[0].length, end) : '';
}
