import type { StoredEdgeType, StoredVertexType } from './catalog.js';

/*
 * What a write tells the traversal view (query/graph-view.ts) of the rows it touched, so that the
 * view takes those rows in at the next query instead of reading the whole store again.
 */

/** A vertex a write names, by its stored type and primary id. */
export interface WrittenVertex {
  type: StoredVertexType;
  id: string;
  /** Deleted by the write, with its edges (it may have been made again since). */
  deleted?: boolean;
}

/** An edge a write names, by its type and its ends as stored. */
export interface WrittenEdge {
  view: { type: StoredEdgeType };
  from: WrittenVertex;
  to: WrittenVertex;
}

/** The rows a write touched, as the view reads them back: an upsert plan has this shape. */
export interface WrittenRows {
  vertices: readonly WrittenVertex[];
  edges: readonly WrittenEdge[];
}

/**
 * The rows one write touches, gathered for the view to take in (writingRows) up to `room` of
 * them. Past that, or once told of rows it cannot list, the write is too large to take in, and
 * nothing more is kept.
 */
export class TouchedRows {
  readonly chunks: WrittenRows[] = [];
  private own: { vertices: WrittenVertex[]; edges: WrittenEdge[] } | undefined;
  private count = 0;
  private over = false;
  constructor(private readonly room: number) {}

  /** Whether the write touched more than the view would take in. */
  get tooMany(): boolean {
    return this.over;
  }

  /** Rows listed already (an upsert's plan), kept as they are. */
  rows(rows: WrittenRows): void {
    if (this.fits(rows.vertices.length + rows.edges.length)) this.chunks.push(rows);
  }

  vertex(v: WrittenVertex): void {
    if (this.fits(1)) this.ownRows().vertices.push(v);
  }

  edge(e: WrittenEdge): void {
    if (this.fits(1)) this.ownRows().edges.push(e);
  }

  /** The write touched rows it does not list one by one (all of a type): the view is built anew. */
  unlisted(): void {
    this.over = true;
  }

  private ownRows() {
    if (!this.own) this.chunks.push((this.own = { vertices: [], edges: [] }));
    return this.own;
  }

  private fits(n: number): boolean {
    if (!this.over && (this.count += n) > this.room) this.over = true;
    return !this.over;
  }
}
