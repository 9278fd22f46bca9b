// What the Graph tab reads from GSQL's printed output and writes as REST++ parameters: plain text work.

/** GSQL's printed output without its return-code line, and the code (0 when it ran without error). */
export function gsqlOutput(text: string): { output: string; returnCode: number } {
  const m = /\n?__GSQL__RETURN__CODE__,(\d+)\s*$/.exec(text);
  if (!m) return { output: text, returnCode: 0 };
  return { output: text.slice(0, m.index), returnCode: Number(m[1]) };
}

/**
 * Turns `name=value` lines (or a query string) into a query string: repeated names stay repeated, as TigerGraph
 * takes a collection parameter.
 */
export function parameterQuery(text: string): string {
  const pairs = text
    .split(/\r?\n|&/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf('=');
      const [k, v] = at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
      return `${encodeURIComponent(k)}=${encodeURIComponent(v)}`;
    });
  return pairs.join('&');
}
