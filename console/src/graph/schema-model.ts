/** A graph's schema as the diagram draws it, from TigerGraph's schema JSON and the builtins' counts. */

export interface VertexTypeModel {
  name: string;
  count: number | undefined;
}

export interface EdgeTypeModel {
  name: string;
  directed: boolean;
  /** Each (from, to) pair the type joins; `*` where it joins any vertex type. */
  pairs: Array<{ from: string; to: string }>;
  count: number | undefined;
}

export interface SchemaModel {
  graph: string;
  vertexTypes: VertexTypeModel[];
  edgeTypes: EdgeTypeModel[];
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asString = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Counts by type name from a `stat_vertex_number` / `stat_edge_number` answer's `results`. */
export function countsOf(results: unknown, key: 'v_type' | 'e_type'): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of asList(results)) {
    const r = asObject(row);
    if (typeof r[key] === 'string' && typeof r.count === 'number') counts.set(r[key], r.count);
  }
  return counts;
}

/** The model of `GET /gsql/v1/schema/graphs/{graph}`'s `results`, with the counts found (absent: unknown). */
export function schemaModel(results: unknown, vertexCounts: Map<string, number>, edgeCounts: Map<string, number>) {
  const schema = asObject(results);
  const model: SchemaModel = {
    graph: asString(schema.GraphName),
    vertexTypes: asList(schema.VertexTypes).map((v) => {
      const name = asString(asObject(v).Name);
      return { name, count: vertexCounts.get(name) };
    }),
    edgeTypes: asList(schema.EdgeTypes).map((e) => {
      const t = asObject(e);
      const name = asString(t.Name);
      const listed = asList(t.EdgePairs).map((p) => ({
        from: asString(asObject(p).From),
        to: asString(asObject(p).To),
      }));
      const pairs = listed.length
        ? listed
        : [{ from: asString(t.FromVertexTypeName) || '*', to: asString(t.ToVertexTypeName) || '*' }];
      return { name, directed: t.IsDirected === true, pairs, count: edgeCounts.get(name) };
    }),
  };
  return model;
}
