/**
 * Tables the docs carry between markers, written from the code (`npm run routes`,
 * `npm run settings`) and checked by tests: `<!-- name:start (a note) -->`, the table,
 * `<!-- name:end -->`.
 */

/** Where the table between the document's `name` markers begins and ends; undefined without both markers. */
function between(doc: string, name: string): { from: number; to: number } | undefined {
  const start = new RegExp(`<!-- ${name}:start[^>]*-->`).exec(doc);
  const to = doc.indexOf(`<!-- ${name}:end -->`);
  return start && to > start.index ? { from: start.index + start[0].length, to } : undefined;
}

/** The rows of a Markdown table, as cells (alignment and the separator row ignored). */
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

/** The document with the table between its `name` markers replaced; undefined when the markers are missing. */
export function withTable(doc: string, name: string, table: string): string | undefined {
  const span = between(doc, name);
  return span && `${doc.slice(0, span.from)}\n\n${table}\n\n${doc.slice(span.to)}`;
}

/** The table now between the document's `name` markers ('' when they are missing). */
export function tableIn(doc: string, name: string): string {
  const span = between(doc, name);
  return span ? doc.slice(span.from, span.to) : '';
}
