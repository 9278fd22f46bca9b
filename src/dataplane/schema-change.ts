import {
  CatalogError,
  checkAttributes,
  checkDropEdge,
  checkDropVertex,
  edgeTypeFromDecl,
  vertexTypeFromDecl,
  type StoredEdgeType,
  type StoredVertexType,
} from './catalog.js';
import { checkJobNameFree } from './jobs.js';
import type { GraphStore } from './graph-store.js';
import { schemaLimits } from './schema-limits.js';
import type { JobAction, SchemaJobDecl } from './gsql-ast.js';
import type { GraphDef, SchemaJobDef } from './schema-types.js';
import { shapeDefault } from './typed-values.js';

/**
 * Schema change jobs: `CREATE [GLOBAL] SCHEMA_CHANGE JOB` keeps the steps, `RUN` applies them
 * all in one transaction, so a step that is refused leaves the schema as it was.
 */

/** The graph a job works in: none for a global job, else `FOR GRAPH g` or the session's graph. */
function jobGraph(store: GraphStore, decl: { global: boolean; graph?: string }, session?: string): string | undefined {
  if (decl.global) {
    if (decl.graph !== undefined) throw new CatalogError('A GLOBAL SCHEMA_CHANGE JOB cannot be FOR GRAPH.');
    return undefined;
  }
  const graph = decl.graph ?? session;
  if (graph === undefined)
    throw new CatalogError('A local schema change job needs a graph: USE GRAPH g first, or write FOR GRAPH g.');
  if (!store.catalog.graphs.has(graph)) throw new CatalogError(`The graph ${graph} does not exist.`);
  return graph;
}

/** `CREATE … SCHEMA_CHANGE JOB`: checked by running it and rolling back, then kept. */
export function createSchemaJob(store: GraphStore, decl: SchemaJobDecl, session?: string): string {
  const graph = jobGraph(store, decl, session);
  checkJobNameFree(store, decl.name);
  const job: SchemaJobDef = { name: decl.name, global: decl.global, actions: decl.actions, text: decl.text };
  if (graph !== undefined) job.graph = graph;
  dryRun(store, job);
  store.saveJob(job);
  return `Successfully created schema change jobs: [${decl.name}].`;
}

class DryRun extends Error {}

/** Applies a job inside a transaction that is always rolled back: its refusals, without its changes. */
function dryRun(store: GraphStore, job: SchemaJobDef): void {
  try {
    store.schemaTransaction(() => {
      applyJob(store, job);
      throw new DryRun();
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
}

/** `RUN [GLOBAL] SCHEMA_CHANGE JOB j`: every step, or (on a refusal) none. */
export function runSchemaJob(store: GraphStore, name: string, global: boolean, session?: string): string {
  const job = store.catalog.jobs.get(name);
  if (!job) throw new CatalogError(`The schema change job ${name} does not exist.`);
  if (job.global !== global)
    throw new CatalogError(
      job.global ? `${name} is a global job: RUN GLOBAL SCHEMA_CHANGE JOB ${name}.` : `${name} is a local job.`,
    );
  if (!job.global && session !== undefined && job.graph !== session)
    throw new CatalogError(`The job ${name} belongs to the graph ${job.graph}; USE GRAPH ${job.graph} first.`);
  const lines = store.schemaTransaction(() => applyJob(store, job));
  lines.push(job.global ? 'Global schema change succeeded.' : 'Local schema change succeeded.');
  return lines.join('\n');
}

/** Runs the steps in order; the caller's transaction undoes them all when one throws. */
function applyJob(store: GraphStore, job: SchemaJobDef): string[] {
  const graph = job.graph;
  if (graph !== undefined && !store.catalog.graphs.has(graph))
    throw new CatalogError(`The graph ${graph} of the job ${job.name} does not exist.`);
  const where = graph === undefined ? 'global' : 'local';
  const lines: string[] = [];
  for (const action of job.actions as JobAction[]) {
    switch (action.kind) {
      case 'addVertex':
        store.createVertexType(vertexTypeFromDecl(store.catalog, action.decl, graph));
        addToGraph(store, graph, 'vertexTypes', action.decl.name);
        lines.push(`Trying to add ${where} vertex type ${action.decl.name}.`);
        break;
      case 'addEdge':
        store.createEdgeType(edgeTypeFromDecl(store.catalog, action.decl, graph));
        addToGraph(store, graph, 'edgeTypes', action.decl.name);
        lines.push(`Trying to add ${where} edge type ${action.decl.name}.`);
        break;
      case 'dropVertex':
      case 'dropEdge': {
        const vertex = action.kind === 'dropVertex';
        for (const n of action.names) ownType(store, vertex ? 'VERTEX' : 'EDGE', n, graph);
        removeFromGraph(store, graph, vertex ? 'vertexTypes' : 'edgeTypes', action.names);
        if (vertex) {
          checkDropVertex(store.catalog, action.names);
          store.dropVertexTypes(action.names);
        } else {
          checkDropEdge(store.catalog, action.names);
          store.dropEdgeTypes(action.names);
        }
        lines.push(`Trying to drop ${where} ${vertex ? 'vertex' : 'edge'} types ${action.names.join(', ')}.`);
        break;
      }
      case 'alterAdd':
      case 'alterDrop':
        alterAttributes(store, action, graph);
        lines.push(`Trying to alter ${where} ${action.what.toLowerCase()} type ${action.type}.`);
        break;
    }
  }
  return lines;
}

/** A type the job may change: a local one of its graph, or (for a global job) a global one. */
function ownType(
  store: GraphStore,
  what: 'VERTEX' | 'EDGE',
  name: string,
  graph: string | undefined,
): StoredVertexType | StoredEdgeType {
  const type = what === 'VERTEX' ? store.catalog.vertexTypes.get(name) : store.catalog.edgeTypes.get(name);
  const label = what === 'VERTEX' ? 'vertex' : 'edge';
  if (!type || type.graph !== graph)
    throw new CatalogError(
      graph === undefined
        ? `The global ${label} type ${name} does not exist.`
        : `The ${label} type ${name} is not a local type of the graph ${graph}.`,
    );
  return type;
}

export function addToGraph(
  store: GraphStore,
  graph: string | undefined,
  list: 'vertexTypes' | 'edgeTypes',
  name: string,
) {
  if (graph === undefined) return;
  const g = store.catalog.graphs.get(graph)!;
  store.replaceGraph({ ...g, [list]: [...g[list], name] } as GraphDef);
}

export function removeFromGraph(
  store: GraphStore,
  graph: string | undefined,
  list: 'vertexTypes' | 'edgeTypes',
  names: string[],
) {
  if (graph === undefined) return;
  const gone = new Set(names);
  const g = store.catalog.graphs.get(graph)!;
  store.replaceGraph({ ...g, [list]: g[list].filter((n) => !gone.has(n)) } as GraphDef);
}

/** Path of an attribute in the stored JSON; names are identifiers (the parser reads only words). */
const jsonPath = (name: string) => `$.${name}`;

function alterAttributes(
  store: GraphStore,
  action: Extract<JobAction, { kind: 'alterAdd' | 'alterDrop' }>,
  graph: string | undefined,
): void {
  const type = ownType(store, action.what, action.type, graph);
  const table = action.what === 'VERTEX' ? 'vertex_types' : 'edge_types';
  const rows = action.what === 'VERTEX' ? 'vertices' : 'edges';
  if (action.kind === 'alterAdd') {
    const taken = new Set(type.attributes.map((a) => a.name));
    if ('primaryId' in type) taken.add(type.primaryId.name);
    for (const a of action.attributes)
      if (taken.has(a.name)) throw new CatalogError(`The attribute ${a.name} already exists in ${type.name}.`);
    const added = checkAttributes(store.catalog, [...action.attributes], type.name, graph);
    const attributes = [...type.attributes, ...added];
    if (attributes.length > schemaLimits.attributesPerType)
      throw new CatalogError(
        `The type ${type.name} would have ${attributes.length} attributes; a type has at most ` +
          `${schemaLimits.attributesPerType}.`,
      );
    const defaults = JSON.stringify(Object.fromEntries(added.map((a) => [a.name, a.default ?? shapeDefault(a)])));
    store.replaceType(table, { ...type, attributes } as StoredVertexType, () =>
      store.db.prepare(`UPDATE ${rows} SET attrs = json_patch(attrs, ?) WHERE type_id = ?`).run(defaults, type.id),
    );
    return;
  }
  const gone = new Set(action.names);
  for (const n of action.names) {
    const attr = type.attributes.find((a) => a.name === n);
    if (!attr) throw new CatalogError(`The attribute ${n} does not exist in ${type.name}.`);
    const keyed = attr.isPrimaryKey || ('compositeKey' in type && type.compositeKey?.includes(n));
    if (keyed) throw new CatalogError(`The attribute ${n} is the primary key of ${type.name} and cannot be dropped.`);
  }
  const paths = action.names.map(jsonPath);
  store.replaceType(
    table,
    { ...type, attributes: type.attributes.filter((a) => !gone.has(a.name)) } as StoredVertexType,
    () =>
      store.db
        .prepare(`UPDATE ${rows} SET attrs = json_remove(attrs, ${paths.map(() => '?').join(', ')}) WHERE type_id = ?`)
        .run(...paths, type.id),
  );
}
