import type { StoredVertexType } from './catalog.js';
import { checkVertexId } from './composite-key.js';
import { fail } from './errors.js';
import type { GraphStore } from './graph-store.js';
import type { TouchedRows } from './touched-rows.js';
import {
  attributeMap,
  conditionSql,
  parseFilter,
  parseLimit,
  parseSelect,
  parseSort,
  sortSql,
  type Condition,
  type SortKey,
} from './query-params.js';

/** The query string of a vertex list, read against the vertex type. */
export interface VertexQuery {
  conditions: Condition[];
  sort: SortKey[];
  select?: string[];
  limit?: number;
}

export function readVertexQuery(type: StoredVertexType, q: Record<string, string | undefined>): VertexQuery {
  const attrs = attributeMap(type.attributes);
  return {
    conditions: parseFilter(q.filter, attrs),
    sort: parseSort(q.sort, attrs),
    select: parseSelect(q.select, attrs),
    limit: parseLimit(q.limit),
  };
}

/** A vertex id from a URL in its stored form; a malformed id is a bad parameter. */
export function urlVertexId(type: StoredVertexType, raw: string): string {
  const checked = checkVertexId(type, raw);
  return checked.ok
    ? String(checked.value)
    : fail('invalidParameter', `The vertex id is not valid: ${checked.reason}.`);
}

/** One vertex as REST++ prints it; the stored JSON is spliced in unless attributes are selected. */
export function vertexJson(type: StoredVertexType, id: string, attrs: string, select?: string[]): string {
  let attributes = attrs;
  if (select) {
    const all = JSON.parse(attrs) as Record<string, unknown>;
    attributes = JSON.stringify(Object.fromEntries(select.map((name) => [name, all[name]])));
  }
  return `{"v_id":${JSON.stringify(id)},"v_type":${JSON.stringify(type.name)},"attributes":${attributes}}`;
}

export function getVertex(store: GraphStore, type: StoredVertexType, id: string): string | undefined {
  return store.db.prepare('SELECT attrs FROM vertices WHERE type_id = ? AND id = ?').pluck().get(type.id, id) as
    string | undefined;
}

const BATCH = 1000;

/**
 * The vertices of a type, as JSON texts in batches, so a long list is written as it is read.
 * Unsorted lists are read in id order by key ranges, each batch its own short query; sorted
 * ones are read in one query (a sort needs every row anyway).
 */
export function* vertexBatches(store: GraphStore, type: StoredVertexType, q: VertexQuery): Generator<string[]> {
  const where = conditionSql(q.conditions);
  const filter = where.sql ? ` AND ${where.sql}` : '';
  if (q.sort.length > 0) {
    const rows = store.db
      .prepare(
        `SELECT id, attrs FROM vertices WHERE type_id = ?${filter} ` +
          `ORDER BY ${sortSql(q.sort)}, id${q.limit ? ' LIMIT ?' : ''}`,
      )
      .all(type.id, ...where.params, ...(q.limit ? [q.limit] : [])) as { id: string; attrs: string }[];
    for (let i = 0; i < rows.length; i += BATCH)
      yield rows.slice(i, i + BATCH).map((r) => vertexJson(type, r.id, r.attrs, q.select));
    return;
  }
  const stmt = store.db.prepare(
    `SELECT id, attrs FROM vertices WHERE type_id = ? AND id > ?${filter} ORDER BY id LIMIT ?`,
  );
  let after = '';
  let left = q.limit ?? Infinity;
  while (left > 0) {
    const rows = stmt.all(type.id, after, ...where.params, Math.min(BATCH, left)) as { id: string; attrs: string }[];
    if (rows.length === 0) return;
    yield rows.map((r) => vertexJson(type, r.id, r.attrs, q.select));
    left -= rows.length;
    after = rows[rows.length - 1]!.id;
    if (rows.length < BATCH) return;
  }
}

export function countVertices(store: GraphStore, type: StoredVertexType, conditions: Condition[]): number {
  const where = conditionSql(conditions);
  return Number(
    store.db
      .prepare(`SELECT count(*) FROM vertices WHERE type_id = ?${where.sql ? ` AND ${where.sql}` : ''}`)
      .pluck()
      .get(type.id, ...where.params),
  );
}

type Db = GraphStore['db'];
const deletes = new WeakMap<Db, ReturnType<typeof prepareDeletes>>();

const prepareDeletes = (db: Db) => ({
  edgesOut: db.prepare('DELETE FROM edges WHERE from_type = ? AND from_id = ?'),
  edgesIn: db.prepare('DELETE FROM edges WHERE to_type = ? AND to_id = ?'),
  vertex: db.prepare('DELETE FROM vertices WHERE type_id = ? AND id = ?'),
});

/**
 * The statements of a vertex's delete, prepared once per connection: queries and loading jobs
 * delete one vertex at a time, and would otherwise prepare three statements for each.
 */
function deleteStatements(db: Db) {
  let st = deletes.get(db);
  if (!st) deletes.set(db, (st = prepareDeletes(db)));
  return st;
}

/**
 * Deletes vertices with every edge that touches them, as TigerGraph's delete cascades; inside
 * the caller's write transaction (a query's writes commit together). Each vertex deleted is
 * listed in `touched`, when given.
 */
export function deleteIds(store: GraphStore, type: StoredVertexType, ids: string[], touched?: TouchedRows): number {
  const { edgesOut, edgesIn, vertex } = deleteStatements(store.db);
  let deleted = 0;
  for (const id of ids) {
    edgesOut.run(type.id, id);
    edgesIn.run(type.id, id);
    const changes = vertex.run(type.id, id).changes;
    if (changes > 0) touched?.vertex({ type, id, deleted: true });
    deleted += changes;
  }
  return deleted;
}

export function deleteVertex(store: GraphStore, type: StoredVertexType, id: string, touched?: TouchedRows): number {
  return store.write(() => deleteIds(store, type, [id], touched));
}

/** Deletes the vertices a filter (and limit with sort) selects; all of the type when none is given. */
export function deleteVertices(
  store: GraphStore,
  type: StoredVertexType,
  q: VertexQuery,
  touched?: TouchedRows,
): number {
  return store.write(() => {
    if (q.conditions.length === 0 && q.limit === undefined) {
      touched?.unlisted();
      store.db.prepare('DELETE FROM edges WHERE from_type = ? OR to_type = ?').run(type.id, type.id);
      return store.db.prepare('DELETE FROM vertices WHERE type_id = ?').run(type.id).changes;
    }
    const where = conditionSql(q.conditions);
    const ids = store.db
      .prepare(
        `SELECT id FROM vertices WHERE type_id = ?${where.sql ? ` AND ${where.sql}` : ''}` +
          ` ORDER BY ${q.sort.length ? `${sortSql(q.sort)}, ` : ''}id${q.limit ? ' LIMIT ?' : ''}`,
      )
      .pluck()
      .all(type.id, ...where.params, ...(q.limit ? [q.limit] : [])) as string[];
    return deleteIds(store, type, ids, touched);
  });
}
