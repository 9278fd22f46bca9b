import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { tableIn, tableRows } from '../src/cli/doc-tables.js';
import { settingsTable } from '../src/cli/settings-table.js';
import { loadConfig, settings } from '../src/config.js';

const operations = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');

describe('the settings table', () => {
  it('is docs/operations.md’s table of settings (npm run settings writes it)', () => {
    const rows = tableRows(tableIn(operations, 'settings'));
    assert.ok(rows.length > 1, 'docs/operations.md has a table between its settings markers');
    assert.deepEqual(rows, tableRows(settingsTable()));
  });

  it('names each variable, flag and Config property once, and loadConfig fills every property', () => {
    for (const part of ['env', 'flag', 'key'] as const) {
      const names = settings.map((s) => s[part]);
      assert.deepEqual(names, [...new Set(names)], `each ${part} is one setting's`);
    }
    assert.deepEqual(
      Object.keys(loadConfig({})).sort(),
      [...settings.map((s) => s.key), 'catalog', 'bodyLimit'].sort(),
    );
  });
});
