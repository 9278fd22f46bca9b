/** The component lines `getVersion()` splits: name, release_<version>_<date>, commit, date and time. */
export function versionText(tgVersion: string): string {
  const components = ['product', 'gle', 'gpe', 'gse', 'restpp', 'gsql', 'utility'];
  const lines = components.map(
    (c) =>
      `${c.padEnd(16)}release_${tgVersion}_acacia  0000000000000000000000000000000000000000  2025-01-01 00:00:00 +0000`,
  );
  return `TigerGraph RESTPP:\n --- Version ---\nTigerGraph version: ${tgVersion}\n${lines.join('\n')}\n`;
}
