// `npm run settings`: writes docs/operations.md's table of settings from the settings table (src/config.ts).
import { settingsTable } from '../src/cli/settings-table.js';
import { writeTable } from './doc-tables.js';

await writeTable(new URL('../docs/operations.md', import.meta.url), 'settings', settingsTable());
