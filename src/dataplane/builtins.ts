import { attributeStats, hasStats } from './attribute-stats.js';
import { statEdgeNumber } from './edge-ops.js';
import { fail } from './errors.js';
import type { GraphStore } from './graph-store.js';
import type { GraphDef } from './schema-types.js';
import { countVertices } from './vertex-ops.js';

/** What a builtin answers: results, or TigerGraph's "nothing to report" for one type. */
export type BuiltinOutcome = { results: unknown[] } | { skipped: string };

/**
 * `POST /builtins/{graph}` with `{"function": …, "type": …}`: stat_vertex_number,
 * stat_edge_number (with optional from_type/to_type), stat_vertex_attr and stat_edge_attr.
 */
export function runBuiltin(store: GraphStore, graph: GraphDef, body: unknown): BuiltinOutcome {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    fail('invalidPayload', 'The builtins payload must be a JSON object with "function" and "type".');
  const { function: fn, type, from_type: fromName, to_type: toName } = body as Record<string, unknown>;
  if (typeof type !== 'string') return fail('invalidPayload', 'The builtins payload needs "type": a type name or "*".');
  const { catalog } = store;
  const vertexNames = () => {
    if (type === '*') return graph.vertexTypes;
    // TigerGraph 4.x counts through GSQL, so an unknown type is GSQL's refusal (getVertexCount() expects GSQL-7004).
    if (!catalog.vertexTypeIn(graph, type))
      return fail('unknownStatType', `The vertex type '${type}' does not exist in graph '${graph.name}'.`);
    return [type];
  };
  const edgeViews = () =>
    type === '*'
      ? catalog.edgeViewsOf(graph)
      : [
          catalog.edgeViewIn(graph, type) ??
            fail(
              'invalidPayload',
              `The input parameter edge_type = '${type}' is not a valid edge type in graph '${graph.name}'.`,
            ),
        ];
  const optionalVertex = (name: unknown, field: string) => {
    if (name === undefined || name === '*') return undefined;
    if (typeof name !== 'string')
      return fail('invalidPayload', `The builtins field "${field}" must be a vertex type name.`);
    return store.vertexType(graph, name);
  };

  switch (fn) {
    case 'stat_vertex_number':
      return {
        results: vertexNames().map((n) => ({
          v_type: n,
          count: countVertices(store, catalog.vertexTypes.get(n)!, []),
        })),
      };
    case 'stat_edge_number':
      return {
        results: statEdgeNumber(
          store,
          edgeViews(),
          optionalVertex(fromName, 'from_type'),
          optionalVertex(toName, 'to_type'),
        ),
      };
    case 'stat_vertex_attr': {
      const types = vertexNames().map((n) => catalog.vertexTypes.get(n)!);
      const withStats = types.filter((t) => hasStats(t.attributes));
      if (withStats.length === 0)
        return { skipped: `stat_vertex_attr is skip for '${type}': it has no numeric or boolean attribute.` };
      return {
        results: withStats.map((t) => ({
          v_type: t.name,
          attributes: attributeStats(store, 'vertices', t.id, t.attributes),
        })),
      };
    }
    case 'stat_edge_attr': {
      const views = edgeViews().filter((v) => hasStats(v.type.attributes));
      if (views.length === 0)
        return { skipped: `stat_edge_attr is skip for '${type}': it has no numeric or boolean attribute.` };
      return {
        results: views.map((v) => ({
          e_type: v.name,
          attributes: attributeStats(store, 'edges', v.type.id, v.type.attributes),
        })),
      };
    }
    default:
      return fail(
        'invalidPayload',
        `The builtin function ${JSON.stringify(fn)} is not supported; use stat_vertex_number, stat_edge_number, ` +
          'stat_vertex_attr or stat_edge_attr.',
      );
  }
}
