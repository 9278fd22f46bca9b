import type { Catalog } from './catalog.js';
import type { AttributeDef, EdgeTypeDef, GraphDef, TupleDef, ValueShape, VertexTypeDef } from './schema-types.js';
import { shapeText } from './typed-values.js';

/** Schema as TigerGraph's GSQL server prints it (`getSchema()` and friends parse these shapes). */

/** `AttributeType`: the name, and the parts of collections, tuples and FIXED_BINARY. */
function attributeTypeJson(a: ValueShape): Record<string, unknown> {
  const t: Record<string, unknown> = { Name: a.type };
  if (a.type === 'UDT') t.TupleName = a.tuple!.name;
  if (a.type === 'FIXED_BINARY') t.FixedSize = a.fixedSize;
  if (a.keyType !== undefined) t.KeyTypeName = a.keyType;
  if (a.valueType !== undefined) t.ValueTypeName = a.valueType;
  if (a.valueType === 'UDT') t.ValueTypeTupleName = a.tuple!.name;
  return t;
}

function attributeJson(a: AttributeDef): Record<string, unknown> {
  return {
    AttributeType: attributeTypeJson(a),
    AttributeName: a.name,
    ...(a.default !== undefined ? { DefaultValue: String(a.default) } : {}),
    IsPrimaryKey: a.isPrimaryKey ?? false,
  };
}

export function vertexTypeJson(v: VertexTypeDef): Record<string, unknown> {
  const asAttribute = v.config.PRIMARY_ID_AS_ATTRIBUTE === 'true';
  return {
    Config: { STATS: v.config.STATS ?? 'OUTDEGREE_BY_EDGETYPE', PRIMARY_ID_AS_ATTRIBUTE: asAttribute },
    // With PRIMARY_ID the id is listed apart from the attributes; in the PRIMARY KEY form it is one of them.
    Attributes: v.attributes.filter((a) => v.primaryKeyForm || !a.isPrimaryKey).map(attributeJson),
    PrimaryId: {
      AttributeType: { Name: v.primaryId.type },
      AttributeName: v.primaryId.name,
      PrimaryIdAsAttribute: asAttribute,
      ...(v.primaryKeyForm ? { IsPrimaryKey: true } : {}),
    },
    Name: v.name,
    IsLocal: v.graph !== undefined,
  };
}

/**
 * An edge type as TigerGraph's schema JSON shows it. Within a graph (`vertexTypes` given), a
 * `*` end is listed in EdgePairs as each of the graph's vertex types, as TigerGraph lists it.
 */
export function edgeTypeJson(e: EdgeTypeDef, vertexTypes?: readonly string[]): Record<string, unknown> {
  const single = e.pairs.length === 1;
  const ends = (name: string) => (name === '*' && vertexTypes ? vertexTypes : [name]);
  const pairs = e.pairs.flatMap((p) =>
    ends(p.from).flatMap((from) => ends(p.to).map((to) => ({ From: from, To: to }))),
  );
  return {
    IsDirected: e.directed,
    ToVertexTypeName: single ? e.pairs[0]!.to : '*',
    Config: e.reverse ? { REVERSE_EDGE: e.reverse } : {},
    DiscriminatorCount: 0,
    Attributes: e.attributes.map(attributeJson),
    FromVertexTypeName: single ? e.pairs[0]!.from : '*',
    // As TigerGraph answers: the pairs are not listed for an edge type of one pair of named types.
    ...(single && e.pairs[0]!.from !== '*' && e.pairs[0]!.to !== '*' ? {} : { EdgePairs: pairs }),
    Name: e.name,
    IsLocal: e.graph !== undefined,
  };
}

/** One user-defined tuple as `/gsql/v1/udt/tuples` lists it. */
export function tupleJson(t: TupleDef): Record<string, unknown> {
  return {
    name: t.name,
    fields: t.fields.map((f) => ({
      fieldName: f.name,
      fieldType: f.type,
      ...(f.size !== undefined ? { length: f.size } : {}),
    })),
  };
}

/** The tuples a graph sees: the global ones and its own (all global ones without a graph). */
export function tuplesJson(catalog: Catalog, graph: string | undefined): Record<string, unknown>[] {
  return [...catalog.tuples.values()].filter((t) => t.graph === undefined || t.graph === graph).map(tupleJson);
}

export function tupleDdl(t: TupleDef): string {
  const fields = t.fields.map((f) => `${f.name} ${f.type}${f.size === undefined ? '' : `(${f.size})`}`);
  return `TYPEDEF TUPLE <${fields.join(', ')}> ${t.name}`;
}

/** `GET /gsql/v1/schema/graphs/{graph}` → `results`. */
export function graphSchemaJson(catalog: Catalog, graph: GraphDef): Record<string, unknown> {
  return {
    GraphName: graph.name,
    VertexTypes: graph.vertexTypes.map((n) => vertexTypeJson(catalog.vertexTypes.get(n)!)),
    EdgeTypes: graph.edgeTypes.map((n) => edgeTypeJson(catalog.edgeTypes.get(n)!, graph.vertexTypes)),
  };
}

/** `GET /gsql/v1/schema/graphs` → `graphs`: names only, reverse edges listed as edges. */
export function graphListJson(catalog: Catalog): Record<string, unknown>[] {
  return [...catalog.graphs.values()].map((g) => ({
    graphName: g.name,
    vertices: g.vertexTypes,
    edges: catalog.edgeViewsOf(g).map((v) => v.name),
  }));
}

// The DDL text of `LS` and `SHOW`.

function attributeDdl(a: AttributeDef): string {
  const dflt =
    a.default === undefined ? '' : ` DEFAULT ${typeof a.default === 'string' ? JSON.stringify(a.default) : a.default}`;
  return `${a.name} ${shapeText(a)}${dflt}`;
}

export function vertexDdl(v: VertexTypeDef): string {
  const parts = v.compositeKey
    ? [...v.attributes.map(attributeDdl), `PRIMARY KEY (${v.compositeKey.join(', ')})`]
    : v.primaryKeyForm
      ? v.attributes.map((a) => (a.isPrimaryKey ? `${a.name} ${a.type} PRIMARY KEY` : attributeDdl(a)))
      : [
          `PRIMARY_ID ${v.primaryId.name} ${v.primaryId.type}`,
          ...v.attributes.filter((a) => !a.isPrimaryKey).map(attributeDdl),
        ];
  const options = [`STATS="${v.config.STATS ?? 'OUTDEGREE_BY_EDGETYPE'}"`];
  if (!v.primaryKeyForm) options.push(`PRIMARY_ID_AS_ATTRIBUTE="${v.config.PRIMARY_ID_AS_ATTRIBUTE ?? 'false'}"`);
  return `VERTEX ${v.name}(${parts.join(', ')}) WITH ${options.join(', ')}`;
}

export function edgeDdl(e: EdgeTypeDef): string {
  const ends = e.pairs.map((p) => `FROM ${p.from}, TO ${p.to}`).join('| ');
  const attrs = e.attributes.map((a) => `, ${attributeDdl(a)}`).join('');
  const reverse = e.reverse ? ` WITH REVERSE_EDGE="${e.reverse}"` : '';
  return `${e.directed ? 'DIRECTED' : 'UNDIRECTED'} EDGE ${e.name}(${ends}${attrs})${reverse}`;
}

export function graphDdl(catalog: Catalog, g: GraphDef): string {
  const members = [...g.vertexTypes.map((n) => `${n}:v`), ...catalog.edgeViewsOf(g).map((v) => `${v.name}:e`)];
  return `Graph ${g.name}(${members.join(', ')})`;
}

/** `LS` at the global scope. */
export function lsText(catalog: Catalog): string {
  const lines = ['---- Global vertices, edges, and all graphs', 'Vertex Types:'];
  for (const v of catalog.vertexTypes.values()) lines.push(`  - ${vertexDdl(v)}`);
  lines.push('Edge Types:');
  for (const e of catalog.edgeTypes.values()) lines.push(`  - ${edgeDdl(e)}`);
  lines.push('', 'Graphs:');
  for (const g of catalog.graphs.values()) lines.push(`  - ${graphDdl(catalog, g)}`);
  return lines.join('\n');
}
