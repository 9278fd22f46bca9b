import type Database from 'better-sqlite3';
import { CatalogError, type EdgeView, type StoredEdgeType, type StoredVertexType } from '../catalog.js';
import type { GraphStore } from '../graph-store.js';
import type { GraphDef } from '../schema-types.js';
import type { TouchedRows } from '../touched-rows.js';
import { ordered } from '../upsert-plan.js';
import type { EdgeRow } from '../edge-ops.js';
import { deleteIds } from '../vertex-ops.js';
import { at, type DeleteStatementDef } from './job-types.js';

/**
 * The `DELETE` statements of a loading job: each line names a vertex, or the edges from a
 * vertex (of one type, to one target, or of every type), to delete, as TigerGraph's loader does.
 * A vertex goes with its edges, as every delete of a vertex here does.
 */

/** A `DELETE` statement resolved against the schema: the types it names. */
export type DeleteTarget =
  | { kind: 'vertex'; type: StoredVertexType }
  | { kind: 'edge'; view: EdgeView; from: StoredVertexType; to: StoredVertexType }
  | { kind: 'anyEdge'; type: StoredVertexType; edgeTypes: StoredEdgeType[] };

/** The name a delete's edges are counted under in `deleteEdge`: the edge type, or `*`. */
export const deletedName = (target: Exclude<DeleteTarget, { kind: 'vertex' }>) =>
  target.kind === 'edge' ? target.view.name : '*';

/** The types a `DELETE` names, checked against the graph as it is now; refusals in GSQL's words. */
export function deleteTarget(store: GraphStore, graph: GraphDef, d: DeleteStatementDef): DeleteTarget {
  if (d.kind === 'edge') {
    const view = store.catalog.edgeViewIn(graph, d.type);
    if (!view || view.reversed)
      throw new CatalogError(`The edge type ${d.type} is not in graph ${graph.name} ${at(d)}.`);
    if (view.type.pairs.length !== 1)
      throw new CatalogError(
        `The edge type ${d.type} has several FROM/TO pairs; deleting by it is not supported by this data plane ` +
          `${at(d)}.`,
      );
    const pair = view.type.pairs[0]!;
    return {
      kind: 'edge',
      view,
      from: store.catalog.vertexTypes.get(pair.from)!,
      to: store.catalog.vertexTypes.get(pair.to)!,
    };
  }
  const type = store.catalog.vertexTypeIn(graph, d.type);
  if (!type) throw new CatalogError(`The vertex type ${d.type} is not in graph ${graph.name} ${at(d)}.`);
  if (d.kind === 'vertex') return { kind: 'vertex', type };
  const edgeTypes = graph.edgeTypes.map((name) => store.catalog.edgeViewIn(graph, name)!.type);
  return { kind: 'anyEdge', type, edgeTypes };
}

/**
 * Deletes what lines name, inside the loading job's write transaction; each row deleted is listed
 * in `touched` (when the traversal view is current), so the next query takes the deletes in.
 */
export class Deleter {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly store: GraphStore,
    private readonly touched: TouchedRows | undefined,
  ) {}

  vertex(type: StoredVertexType, id: string): void {
    deleteIds(this.store, type, [id], this.touched);
  }

  /** The edge of `view` from `fromId` to `toId`, or every edge of `view` from `fromId` when `toId` is undefined. */
  edge(view: EdgeView, from: StoredVertexType, fromId: string, to: StoredVertexType, toId: string | undefined): void {
    const { type } = view;
    if (toId !== undefined) {
      const ends = type.directed
        ? { from: { type: from, id: fromId }, to: { type: to, id: toId } }
        : ordered({ type: from, id: fromId }, { type: to, id: toId });
      this.deleted(
        'edge',
        'DELETE FROM edges WHERE from_type = ? AND from_id = ? AND type_id = ? AND to_type = ? AND to_id = ?',
        ends.from.type.id,
        ends.from.id,
        type.id,
        ends.to.type.id,
        ends.to.id,
      );
      return;
    }
    this.deleted(
      'from',
      'DELETE FROM edges WHERE from_type = ? AND from_id = ? AND type_id = ?',
      from.id,
      fromId,
      type.id,
    );
    // An undirected edge is stored with its ends in a fixed order: the vertex may be its second end.
    if (!type.directed)
      this.deleted('to', 'DELETE FROM edges WHERE to_type = ? AND to_id = ? AND type_id = ?', from.id, fromId, type.id);
  }

  /** Every edge of `edgeTypes` that leaves the vertex: directed ones from it, undirected ones at either end. */
  anyEdge(type: StoredVertexType, id: string, edgeTypes: StoredEdgeType[]): void {
    for (const e of edgeTypes) {
      if (!e.pairs.some((p) => p.from === type.name || (!e.directed && p.to === type.name))) continue;
      this.deleted('from', 'DELETE FROM edges WHERE from_type = ? AND from_id = ? AND type_id = ?', type.id, id, e.id);
      if (!e.directed)
        this.deleted('to', 'DELETE FROM edges WHERE to_type = ? AND to_id = ? AND type_id = ?', type.id, id, e.id);
    }
  }

  /** Runs a delete of edges, listing each one deleted for the traversal view. */
  private deleted(name: string, sql: string, ...params: (string | number)[]): void {
    let st = this.statements.get(name);
    if (!st)
      this.statements.set(
        name,
        (st = this.store.db.prepare(`${sql} RETURNING type_id, from_type, from_id, to_type, to_id`)),
      );
    const { catalog } = this.store;
    for (const row of st.all(...params) as Omit<EdgeRow, 'rowid' | 'attrs'>[])
      this.touched?.edge({
        view: { type: catalog.edgeTypesById.get(row.type_id)! },
        from: { type: catalog.vertexTypesById.get(row.from_type)!, id: row.from_id },
        to: { type: catalog.vertexTypesById.get(row.to_type)!, id: row.to_id },
      });
  }
}
