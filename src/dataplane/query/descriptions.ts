import { CatalogError } from '../catalog.js';
import type { GraphStore } from '../graph-store.js';
import { DESCRIPTION_KIND as KIND, descriptionKey as key } from './description-rows.js';
import { listQueries, parseDef, writeQueries } from './lifecycle.js';

/**
 * Descriptions of queries and of their parameters, as GSQL's `/gsql/v1/description` keeps
 * them: one row per described query in the store's schema objects, so they go with the store
 * (snapshot, restore) and with the query when it is dropped.
 */
interface Described {
  description?: string;
  parameters: Record<string, string>;
}

function read(store: GraphStore, graph: string, query: string): Described {
  const row = store.db
    .prepare('SELECT definition FROM schema_objects WHERE kind = ? AND name = ?')
    .get(KIND, key(graph, query)) as { definition: string } | undefined;
  return row ? (JSON.parse(row.definition) as Described) : { parameters: {} };
}

function write(store: GraphStore, graph: string, query: string, d: Described): void {
  const name = key(graph, query);
  store.db.prepare('DELETE FROM schema_objects WHERE kind = ? AND name = ?').run(KIND, name);
  if (d.description !== undefined || Object.keys(d.parameters).length > 0)
    store.db
      .prepare('INSERT INTO schema_objects (kind, name, definition) VALUES (?, ?, ?)')
      .run(KIND, name, JSON.stringify(d));
}

/** The parameter names of a stored query, in their order; refuses a query the graph has not. */
function paramsOf(store: GraphStore, graph: string, query: string): string[] {
  const q = listQueries(store, graph).find((x) => x.name === query);
  if (!q) throw new CatalogError(`The query ${query} does not exist in graph ${graph}.`);
  return parseDef(q.source).params.map((p) => p.name);
}

/** The descriptions of the named queries (`all`: every query of the graph), parameters in their order. */
export function describedQueries(store: GraphStore, graph: string, names: string[]): Record<string, unknown>[] {
  const picked = names.includes('all') ? listQueries(store, graph).map((q) => q.name) : names;
  return picked.map((queryName) => {
    const params = paramsOf(store, graph, queryName);
    const d = read(store, graph, queryName);
    const parameters = params
      .filter((p) => d.parameters[p] !== undefined)
      .map((paramName) => ({ paramName, description: d.parameters[paramName] }));
    return d.description === undefined
      ? { queryName, parameters }
      : { queryName, description: d.description, parameters };
  });
}

export interface DescriptionUpdate {
  queryName: string;
  description?: string;
  parameters?: { paramName: string; description: string }[];
}

/** Sets descriptions; a parameter the query does not have is refused, and then nothing changes. */
export function describeQueries(store: GraphStore, graph: string, updates: DescriptionUpdate[]): void {
  const next = updates.map((u) => {
    const params = paramsOf(store, graph, u.queryName);
    const d = read(store, graph, u.queryName);
    if (u.description !== undefined) d.description = u.description;
    for (const p of u.parameters ?? []) {
      if (!params.includes(p.paramName))
        throw new CatalogError(`The query ${u.queryName} has no parameter ${p.paramName}.`);
      d.parameters[p.paramName] = p.description;
    }
    return [u.queryName, d] as const;
  });
  writeQueries(store, () => next.forEach(([q, d]) => write(store, graph, q, d)));
}

/** Drops the descriptions of queries (`q`) and of parameters (`q.p`, `q.*`). */
export function dropDescriptions(store: GraphStore, graph: string, queries: string[], parameters: string[]): void {
  const changed = new Map<string, Described>();
  const get = (q: string) => {
    paramsOf(store, graph, q);
    if (!changed.has(q)) changed.set(q, read(store, graph, q));
    return changed.get(q)!;
  };
  for (const q of queries) delete get(q).description;
  for (const qp of parameters) {
    const dot = qp.lastIndexOf('.');
    if (dot < 0) throw new CatalogError(`'${qp}' is not query.parameter or query.*.`);
    const d = get(qp.slice(0, dot));
    const p = qp.slice(dot + 1);
    if (p === '*') d.parameters = {};
    else delete d.parameters[p];
  }
  writeQueries(store, () => changed.forEach((d, q) => write(store, graph, q, d)));
}
