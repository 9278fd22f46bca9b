// `npm run routes`: writes README.md's route table from the endpoint table and the CLI.
import { routeTable } from '../src/cli/route-table.js';
import { writeTable } from './doc-tables.js';

await writeTable(new URL('../README.md', import.meta.url), 'routes', routeTable());
