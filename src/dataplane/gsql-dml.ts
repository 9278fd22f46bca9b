import { CatalogError } from './catalog.js';
import type { GraphStore } from './graph-store.js';
import type { Literal } from './gsql-ast.js';
import { planUpsert } from './upsert-plan.js';
import { writeUpsert } from './upsert-write.js';

/**
 * GSQL's `UPSERT` statements, written as the REST++ upsert payload they amount to, so that
 * both check and write values alike.
 */

function sessionGraph(store: GraphStore, graph: string | undefined) {
  if (graph === undefined) throw new CatalogError('UPSERT needs a graph: USE GRAPH g first.');
  const g = store.catalog.graphs.get(graph);
  if (!g) throw new CatalogError(`The graph ${graph} does not exist.`);
  return g;
}

const value = (l: Literal) => ({ value: l.value });

/** `UPSERT v VALUES (id, a1, a2, …)`: the id, then the attributes in declared order (a key attribute is the id). */
export function upsertVertexStatement(store: GraphStore, graph: string | undefined, type: string, values: Literal[]) {
  const g = sessionGraph(store, graph);
  const v = store.catalog.vertexTypeIn(g, type);
  if (!v) throw new CatalogError(`The vertex type ${type} is not in the graph ${g.name}.`);
  let id: string;
  let attrs: { name: string }[];
  let given: Literal[];
  if (v.compositeKey || v.primaryKeyForm) {
    // The key is among the attributes: the values are the attributes, in order.
    attrs = v.attributes;
    given = values;
    const byName = new Map(attrs.map((a, i) => [a.name, values[i]]));
    const keys = v.compositeKey ?? [v.primaryId.name];
    if (keys.some((k) => byName.get(k) === undefined))
      throw new CatalogError(`UPSERT ${type} needs a value for each of its key attributes ${keys.join(', ')}.`);
    id = keys.map((k) => String(byName.get(k)!.value)).join(',');
  } else {
    attrs = v.attributes.filter((a) => !a.isPrimaryKey);
    id = String(values[0]!.value);
    given = values.slice(1);
  }
  if (given.length > attrs.length)
    throw new CatalogError(`UPSERT ${type} gives ${given.length} attribute values; ${type} has ${attrs.length}.`);
  const body = {
    vertices: {
      [type]: {
        [id]: Object.fromEntries(
          given
            .map((l, i) => [attrs[i]!.name, value(l)] as const)
            .filter(([name]) => !v.attributes.find((a) => a.name === name)?.isPrimaryKey),
        ),
      },
    },
  };
  writeUpsert(store, planUpsert(store, g, body));
  return '';
}

/** `UPSERT a -(e)-> b VALUES (from, to, a1, …)`. */
export function upsertEdgeStatement(
  store: GraphStore,
  graph: string | undefined,
  st: { from: string; edge: string; to: string; values: Literal[] },
) {
  const g = sessionGraph(store, graph);
  const view = store.catalog.edgeViewIn(g, st.edge);
  if (!view) throw new CatalogError(`The edge type ${st.edge} is not in the graph ${g.name}.`);
  if (st.values.length < 2) throw new CatalogError(`UPSERT of ${st.edge} needs its FROM and TO ids.`);
  const [from, to, ...rest] = st.values;
  const attrs = view.type.attributes;
  if (rest.length > attrs.length)
    throw new CatalogError(`UPSERT ${st.edge} gives ${rest.length} attribute values; it has ${attrs.length}.`);
  const body = {
    edges: {
      [st.from]: {
        [String(from!.value)]: {
          [st.edge]: {
            [st.to]: { [String(to!.value)]: Object.fromEntries(rest.map((l, i) => [attrs[i]!.name, value(l)])) },
          },
        },
      },
    },
  };
  writeUpsert(store, planUpsert(store, g, body));
  return '';
}
