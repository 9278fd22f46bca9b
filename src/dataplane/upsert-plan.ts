import { idAsAttribute, opCodes, opFits, type OpCode } from './attribute-values.js';
import { hasPair, type EdgeView, type StoredVertexType } from './catalog.js';
import { checkVertexId } from './composite-key.js';
import { fail } from './errors.js';
import type { GraphStore } from './graph-store.js';
import type { AttributeDef, AttributeValue, GraphDef, ValueShape } from './schema-types.js';
import { checkShapedValue } from './typed-values.js';
import { isJsonObject as isObject } from './json-object.js';

/** One attribute of a payload, checked: the value to store and how to combine it. */
export interface AttributeUpdate {
  name: string;
  /** The attribute's type, which the value of an operation is checked against when it is written. */
  shape: ValueShape;
  value: AttributeValue;
  op?: OpCode;
}

export interface VertexUpsert {
  type: StoredVertexType;
  id: string;
  updates: AttributeUpdate[];
}

export interface EdgeUpsert {
  view: EdgeView;
  /** The row's ends as stored: FROM→TO for a directed edge, a fixed order for an undirected one. */
  from: { type: StoredVertexType; id: string };
  to: { type: StoredVertexType; id: string };
  updates: AttributeUpdate[];
}

export interface UpsertPlan {
  vertices: VertexUpsert[];
  edges: EdgeUpsert[];
}

function entries(value: unknown, path: string): [string, unknown][] {
  if (!isObject(value)) return fail('invalidPayload', `The payload field ${path} must be a JSON object.`);
  return Object.entries(value);
}

/** Attribute definitions by name, per type, built once. */
const attributeIndex = new WeakMap<AttributeDef[], Map<string, AttributeDef>>();

/** `{"attr": {"value": v, "op": "+"}, …}` checked against the attribute definitions of a type. */
function attributeUpdates(
  raw: unknown,
  attributes: AttributeDef[],
  owner: string,
  path: string,
  primaryKey?: { name: string; value: AttributeValue },
): AttributeUpdate[] {
  let byName = attributeIndex.get(attributes);
  if (!byName) attributeIndex.set(attributes, (byName = new Map(attributes.map((a) => [a.name, a]))));
  return entries(raw, path).map(([name, entry]) => {
    const attr = byName.get(name);
    if (!attr) return fail('invalidPayload', `The attribute '${name}' does not exist in ${owner} (at ${path}).`);
    if (!isObject(entry) || !('value' in entry))
      return fail('invalidPayload', `The attribute ${path}.${name} must be an object {"value": …, "op": …}.`);
    const extra = Object.keys(entry).find((k) => k !== 'value' && k !== 'op');
    if (extra) return fail('invalidPayload', `The attribute ${path}.${name} has the unknown field '${extra}'.`);
    const checked = checkShapedValue(attr, entry.value);
    if (!checked.ok)
      return fail('invalidPayload', `The value of attribute '${name}' of ${owner} does not fit: ${checked.reason}.`);
    const update: AttributeUpdate = { name, shape: attr, value: checked.value };
    if (entry.op !== undefined) {
      const op = typeof entry.op === 'string' ? opCodes[entry.op as keyof typeof opCodes] : undefined;
      if (!op)
        return fail(
          'invalidPayload',
          `The op ${JSON.stringify(entry.op)} of ${path}.${name} is not an operation code.`,
        );
      if (!opFits(op, attr.type))
        return fail('invalidPayload', `The op '${entry.op}' does not apply to the ${attr.type} attribute '${name}'.`);
      update.op = op;
    }
    if (primaryKey && name === primaryKey.name && checked.value !== primaryKey.value)
      return fail(
        'invalidPayload',
        `The attribute '${name}' is the primary key of ${owner} and must equal the vertex id.`,
      );
    return update;
  });
}

function vertexId(type: StoredVertexType, raw: string, path: string): string {
  const checked = checkVertexId(type, raw);
  return checked.ok
    ? String(checked.value)
    : fail('invalidPayload', `The vertex id at ${path} is not valid: ${checked.reason}.`);
}

function payloadVertexType(store: GraphStore, graph: GraphDef, name: string, path: string): StoredVertexType {
  return (
    store.catalog.vertexTypeIn(graph, name) ??
    fail(
      'invalidVertexType',
      `The payload contains the vertex type '${name}' (at ${path}), which is not in graph '${graph.name}'.`,
    )
  );
}

/** Orders an undirected edge's ends so that A–B and B–A are one row. */
export function ordered(a: { type: StoredVertexType; id: string }, b: { type: StoredVertexType; id: string }) {
  const aFirst = a.type.id < b.type.id || (a.type.id === b.type.id && a.id <= b.id);
  return aFirst ? { from: a, to: b } : { from: b, to: a };
}

/**
 * Checks a whole REST++ upsert payload before anything is written: TigerGraph refuses the
 * request as a whole when a type or a value does not fit, and so does the data plane.
 */
export function planUpsert(store: GraphStore, graph: GraphDef, body: unknown): UpsertPlan {
  if (!isObject(body))
    return fail('invalidPayload', 'The upsert payload must be a JSON object with "vertices" and/or "edges".');
  const unknown = Object.keys(body).find((k) => k !== 'vertices' && k !== 'edges');
  if (unknown)
    return fail('invalidPayload', `The upsert payload has the unknown field '${unknown}'; use "vertices" and "edges".`);
  const plan: UpsertPlan = { vertices: [], edges: [] };

  if (body.vertices !== undefined)
    for (const [typeName, byId] of entries(body.vertices, 'vertices')) {
      const type = payloadVertexType(store, graph, typeName, `vertices.${typeName}`);
      const key = type.attributes.find((a) => a.isPrimaryKey);
      for (const [rawId, attrs] of entries(byId, `vertices.${typeName}`)) {
        const path = `vertices.${typeName}.${rawId}`;
        const id = vertexId(type, rawId, path);
        const updates = attributeUpdates(
          attrs,
          type.attributes,
          `vertex type '${typeName}'`,
          path,
          key && { name: key.name, value: idAsAttribute(type.primaryId.type, id) },
        );
        plan.vertices.push({ type, id, updates });
      }
    }

  if (body.edges !== undefined)
    for (const [srcTypeName, bySrc] of entries(body.edges, 'edges')) {
      const srcType = payloadVertexType(store, graph, srcTypeName, `edges.${srcTypeName}`);
      for (const [rawSrcId, byEdge] of entries(bySrc, `edges.${srcTypeName}`)) {
        const src = { type: srcType, id: vertexId(srcType, rawSrcId, `edges.${srcTypeName}.${rawSrcId}`) };
        for (const [edgeName, byTgtType] of entries(byEdge, `edges.${srcTypeName}.${rawSrcId}`)) {
          const edgePath = `edges.${srcTypeName}.${rawSrcId}.${edgeName}`;
          const view =
            store.catalog.edgeViewIn(graph, edgeName) ??
            fail(
              'invalidEdgeType',
              `The payload contains the edge type '${edgeName}' (at ` +
                `${edgePath}), which is not in graph '${graph.name}'.`,
            );
          for (const [tgtTypeName, byTgt] of entries(byTgtType, edgePath)) {
            const tgtType = payloadVertexType(store, graph, tgtTypeName, `${edgePath}.${tgtTypeName}`);
            const { type } = view;
            // Read as the caller wrote it: source → target under `edgeName`.
            const fits = !type.directed
              ? hasPair(type, srcTypeName, tgtTypeName) || hasPair(type, tgtTypeName, srcTypeName)
              : view.reversed
                ? hasPair(type, tgtTypeName, srcTypeName)
                : hasPair(type, srcTypeName, tgtTypeName);
            if (!fits)
              fail(
                'invalidEdgeType',
                `The edge type '${edgeName}' does not go from '${srcTypeName}' ` +
                  `to '${tgtTypeName}' (at ${edgePath}.${tgtTypeName}).`,
              );
            for (const [rawTgtId, attrs] of entries(byTgt, `${edgePath}.${tgtTypeName}`)) {
              const path = `${edgePath}.${tgtTypeName}.${rawTgtId}`;
              if (Array.isArray(attrs))
                fail(
                  'invalidPayload',
                  `A list of edges at ${path} needs a DISCRIMINATOR, which this data plane does not support.`,
                );
              const tgt = { type: tgtType, id: vertexId(tgtType, rawTgtId, path) };
              const updates = attributeUpdates(attrs, type.attributes, `edge type '${edgeName}'`, path);
              const ends = !type.directed
                ? ordered(src, tgt)
                : view.reversed
                  ? { from: tgt, to: src }
                  : { from: src, to: tgt };
              plan.edges.push({ view, ...ends, updates });
            }
          }
        }
      }
    }
  return plan;
}
