import { applyOp } from './attribute-values.js';
import { checkShapedValue, dedupeSet } from './typed-values.js';
import type { StoredVertexType } from './catalog.js';
import { fail } from './errors.js';
import type { GraphStore } from './graph-store.js';
import type { AttributeUpdate, UpsertPlan } from './upsert-plan.js';
import type { AttributeValue } from './schema-types.js';

export interface UpsertOptions {
  /** Insert new vertices only; existing ones stay as they are. */
  newVertexOnly?: boolean;
  /** Update existing vertices only; new ones are skipped. */
  updateVertexOnly?: boolean;
  /** Write an edge only when both its vertices exist (those of this request included). */
  vertexMustExist?: boolean;
}

/** The `results[0]` object of a REST++ upsert. */
export interface UpsertResult {
  accepted_vertices: number;
  accepted_edges: number;
  skipped_vertices?: number;
  vertices_already_exist?: { v_type: string; v_id: string }[];
  vertices_not_exist?: { v_type: string; v_id: string }[];
  skipped_edges?: number;
  edge_vertices_not_exist?: { v_type: string; v_id: string }[];
}

type Attrs = Record<string, AttributeValue>;

/** Applies updates to current values (or to defaults for a new vertex or edge). */
function merge(base: Attrs, updates: AttributeUpdate[], isNew: boolean, owner: string): Attrs {
  const out = { ...base };
  for (const u of updates) {
    if (!u.op || isNew) {
      // A new row starts from the payload value, whatever the operation.
      out[u.name] = u.value;
      continue;
    }
    let combined = applyOp(u.op, out[u.name]!, u.value);
    if (u.shape.type === 'SET') combined = dedupeSet(combined as AttributeValue[]);
    const checked = checkShapedValue(u.shape, combined);
    if (!checked.ok)
      fail(
        'invalidPayload',
        `The op '${u.op}' on '${u.name}' of ${owner} gives a value that does not fit: ${checked.reason}.`,
      );
    out[u.name] = combined;
  }
  return out;
}

/**
 * Whether an update needs the stored row: an operation code combines with it, and a MAP or
 * tuple value replaces the stored object, which SQLite's json_patch would merge into instead.
 */
const readsRow = (u: AttributeUpdate): boolean =>
  u.op !== undefined || (typeof u.value === 'object' && !Array.isArray(u.value));

const patchOf = (updates: AttributeUpdate[]): string =>
  JSON.stringify(Object.fromEntries(updates.map((u) => [u.name, u.value])));

/**
 * Writes a checked plan in one transaction with prepared statements. Updates without
 * operation codes patch the stored JSON in SQL; only operation codes read the row first.
 */
export function writeUpsert(store: GraphStore, plan: UpsertPlan, opts: UpsertOptions = {}): UpsertResult {
  const { db } = store;
  const selectVertex = db.prepare('SELECT attrs FROM vertices WHERE type_id = ? AND id = ?').pluck();
  const insertVertex = db.prepare('INSERT OR IGNORE INTO vertices (type_id, id, attrs) VALUES (?, ?, ?)');
  const patchVertex = db.prepare(
    'INSERT INTO vertices (type_id, id, attrs) VALUES (?, ?, ?) ON ' +
      'CONFLICT (type_id, id) DO UPDATE SET attrs = json_patch(attrs, ?)',
  );
  const replaceVertex = db.prepare('UPDATE vertices SET attrs = ? WHERE type_id = ? AND id = ?');
  const selectEdge = db
    .prepare(
      'SELECT attrs FROM edges WHERE from_type = ? AND from_id = ? AND type_id = ? AND to_type = ? AND to_id = ?',
    )
    .pluck();
  const patchEdge = db.prepare(
    `INSERT INTO edges (type_id, from_type, from_id, to_type, to_id, attrs) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (from_type, from_id, type_id, to_type, to_id) DO UPDATE SET attrs = json_patch(attrs, ?)`,
  );
  const replaceEdge = db.prepare(
    `INSERT INTO edges (type_id, from_type, from_id, to_type, to_id, attrs) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (from_type, from_id, type_id, to_type, to_id) DO UPDATE SET attrs = excluded.attrs`,
  );

  return store.write(() => {
    const result: UpsertResult = { accepted_vertices: 0, accepted_edges: 0 };
    if (opts.newVertexOnly) Object.assign(result, { skipped_vertices: 0, vertices_already_exist: [] });
    if (opts.updateVertexOnly) Object.assign(result, { skipped_vertices: 0, vertices_not_exist: [] });
    if (opts.vertexMustExist) Object.assign(result, { skipped_edges: 0, edge_vertices_not_exist: [] });

    for (const v of plan.vertices) {
      const owner = `vertex type '${v.type.name}'`;
      const hasOps = v.updates.some(readsRow);
      if (opts.newVertexOnly || opts.updateVertexOnly || hasOps) {
        const stored = selectVertex.get(v.type.id, v.id) as string | undefined;
        if (stored !== undefined && opts.newVertexOnly) {
          result.skipped_vertices!++;
          result.vertices_already_exist!.push({ v_type: v.type.name, v_id: v.id });
          continue;
        }
        if (stored === undefined && opts.updateVertexOnly) {
          result.skipped_vertices!++;
          result.vertices_not_exist!.push({ v_type: v.type.name, v_id: v.id });
          continue;
        }
        if (stored === undefined) {
          const attrs = merge(store.defaultVertexAttributes(v.type, v.id), v.updates, true, owner);
          insertVertex.run(v.type.id, v.id, JSON.stringify(attrs));
        } else {
          const attrs = merge(JSON.parse(stored) as Attrs, v.updates, false, owner);
          replaceVertex.run(JSON.stringify(attrs), v.type.id, v.id);
        }
      } else if (v.updates.length === 0) {
        insertVertex.run(v.type.id, v.id, JSON.stringify(store.defaultVertexAttributes(v.type, v.id)));
      } else {
        const full = merge(store.defaultVertexAttributes(v.type, v.id), v.updates, true, owner);
        patchVertex.run(v.type.id, v.id, JSON.stringify(full), patchOf(v.updates));
      }
      result.accepted_vertices++;
    }

    // Edges share ends: each end is looked at once per request.
    const seen = new Map<string, boolean>();
    const ensureVertex = (end: { type: StoredVertexType; id: string }): boolean => {
      const key = `${end.type.id}\u0000${end.id}`;
      const known = seen.get(key);
      if (known !== undefined) return known;
      let exists = true;
      if (!opts.vertexMustExist) {
        insertVertex.run(end.type.id, end.id, JSON.stringify(store.defaultVertexAttributes(end.type, end.id)));
      } else if (selectVertex.get(end.type.id, end.id) === undefined) {
        exists = false;
        result.edge_vertices_not_exist!.push({ v_type: end.type.name, v_id: end.id });
      }
      seen.set(key, exists);
      return exists;
    };
    for (const e of plan.edges) {
      const fromOk = ensureVertex(e.from);
      const toOk = ensureVertex(e.to);
      if (!fromOk || !toOk) {
        result.skipped_edges!++;
        continue;
      }
      const t = e.view.type;
      const key = [e.from.type.id, e.from.id, t.id, e.to.type.id, e.to.id] as const;
      const owner = `edge type '${e.view.name}'`;
      if (e.updates.some(readsRow)) {
        const stored = selectEdge.get(...key) as string | undefined;
        const base = stored === undefined ? store.defaultEdgeAttributes(t) : (JSON.parse(stored) as Attrs);
        const attrs = merge(base, e.updates, stored === undefined, owner);
        replaceEdge.run(t.id, e.from.type.id, e.from.id, e.to.type.id, e.to.id, JSON.stringify(attrs));
      } else {
        const full = merge(store.defaultEdgeAttributes(t), e.updates, true, owner);
        patchEdge.run(t.id, e.from.type.id, e.from.id, e.to.type.id, e.to.id, JSON.stringify(full), patchOf(e.updates));
      }
      result.accepted_edges++;
    }
    return result;
  });
}
