import { apiEndpoints, endpointTags, type EndpointId } from '../schemas/endpoints/index.js';
import { API_PREFIX } from '../schemas/envelope.js';
import { commandOf } from './api-command.js';
import { buildCli } from './main.js';

/**
 * Every route of the endpoint table with the CLI command that calls it, as a Markdown table
 * (README.md's route table is this, between its `routes` markers: src/cli/doc-tables.ts).
 */
export function routeTable(): string {
  buildCli();
  const rows = (Object.keys(apiEndpoints) as EndpointId[]).map((id) => {
    const endpoint = apiEndpoints[id];
    const path = endpoint.path.startsWith(API_PREFIX) ? endpoint.path.slice(API_PREFIX.length) : endpoint.path;
    const command = commandOf.get(id);
    const cli = command ? `\`acacia ${command}\`` : '—';
    return { tag: endpoint.tags[0], cells: [endpoint.method, `\`${path}\``, cli, endpoint.summary] };
  });
  const order = endpointTags.map((t) => t.name);
  rows.sort((a, b) => order.indexOf(a.tag) - order.indexOf(b.tag));
  const lines = ['| method | path | CLI | what it does |', '| --- | --- | --- | --- |'];
  for (const r of rows) lines.push(`| ${r.cells.join(' | ')} |`);
  return lines.join('\n');
}
