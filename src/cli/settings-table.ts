import { settings } from '../config.js';

/**
 * Every setting as a Markdown table: variable, `acacia serve` flag, default and meaning, from
 * the settings table of src/config.ts (docs/operations.md's table is this, between its
 * `settings` markers: src/cli/doc-tables.ts).
 */
export function settingsTable(): string {
  const lines = ['| variable | flag | default | meaning |', '| --- | --- | --- | --- |'];
  for (const s of settings) {
    const see = 'see' in s ? ` (see [${s.see}](${s.see}))` : '';
    lines.push(`| \`${s.env}\` | \`--${s.flag}\` | ${s.def ?? '—'} | ${s.help}${see} |`);
  }
  return lines.join('\n');
}
