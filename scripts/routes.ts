// `npm run routes`: writes README.md's route table from the operation table and the CLI.
import { readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { routeTable, withRouteTable } from '../src/cli/route-table.js';

const file = new URL('../README.md', import.meta.url);
const next = withRouteTable(readFileSync(file, 'utf8'), routeTable());
if (next === undefined) throw new Error('README.md has no <!-- routes:start --> … <!-- routes:end --> markers');
const options = (await resolveConfig(file)) ?? {};
writeFileSync(file, await format(next, { ...options, parser: 'markdown' }));
