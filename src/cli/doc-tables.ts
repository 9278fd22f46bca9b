/**
 * Tables the docs carry between markers, written from the code (`npm run routes`,
 * `npm run settings`) and checked by tests: `<!-- name:start (a note) -->`, the table,
 * `<!-- name:end -->`.
 */

const markers = (name: string) => ({ start: new RegExp(`<!-- ${name}:start[^>]*-->`), end: `<!-- ${name}:end -->` });

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
  const { start, end } = markers(name);
  const from = start.exec(doc);
  const to = doc.indexOf(end);
  if (!from || to < from.index) return undefined;
  return `${doc.slice(0, from.index + from[0].length)}\n\n${table}\n\n${doc.slice(to)}`;
}

/** The table now between the document's `name` markers ('' when they are missing). */
export function tableIn(doc: string, name: string): string {
  const { start, end } = markers(name);
  const from = start.exec(doc);
  const to = doc.indexOf(end);
  return from && to > from.index ? doc.slice(from.index + from[0].length, to) : '';
}
