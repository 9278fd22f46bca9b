/**
 * What one graph store's schema may hold. A `CREATE GRAPH g (*)` lists every type, so without
 * bounds a request of graphs after many types stored graphs × types names: 130 KB of GSQL wrote
 * 36 MB, and the process reads the whole schema into memory. With at most `graphs` graphs, what
 * a request stores grows at most that many times its own size, and `bytes` bounds it whatever
 * the request. The counts are far above the schemas TigerGraph users define (tens of types, a
 * few graphs; TigerGraph documents no such limits), and a schema at every limit still fits in
 * the smallest heap a data-plane process gets.
 */
export const schemaLimits = {
  /** Graphs in the store. */
  graphs: 256,
  /** Vertex and edge types together (a reverse edge goes with its edge type). */
  types: 10_000,
  /** Attributes one vertex or edge type declares. */
  attributesPerType: 1_000,
  /** The stored definitions of every type and graph, as JSON, in bytes (4 MiB). */
  bytes: 4 * 1024 * 1024,
} as const;
