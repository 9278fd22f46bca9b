import type { AttributeDecl, EdgeDecl, VertexDecl } from './gsql-ast.js';
import { schemaLimits } from './schema-limits.js';
import { checkShapedValue } from './typed-values.js';
import {
  primaryIdTypeNames,
  scalarTypeNames,
  type AttributeDef,
  type EdgeTypeDef,
  type GraphDef,
  type PrimaryIdTypeName,
  type ScalarTypeName,
  type SchemaJobDef,
  type TupleDef,
  type ValueShape,
  type VertexTypeDef,
} from './schema-types.js';

/** A schema change the catalog refuses; the message is what GSQL prints. */
export class CatalogError extends Error {}

export interface StoredVertexType extends VertexTypeDef {
  id: number;
}
export interface StoredEdgeType extends EdgeTypeDef {
  id: number;
}

/** An edge type as seen under one of its names: the forward name, or the reverse name of a directed edge. */
export interface EdgeView {
  /** The name the caller used. */
  name: string;
  type: StoredEdgeType;
  /** True when `name` is the reverse edge: its rows are read from TO to FROM. */
  reversed: boolean;
}

/** A graph's types as sets: asking whether a graph holds a type costs the same whatever its size. */
interface Members {
  vertexTypes: Set<string>;
  edgeTypes: Set<string>;
}
const membersByGraph = new WeakMap<GraphDef, Members>();

/** The sets of a graph, made at its first look-up (a graph's lists never change once stored). */
function membersOf(graph: GraphDef): Members {
  let members = membersByGraph.get(graph);
  if (!members) {
    members = { vertexTypes: new Set(graph.vertexTypes), edgeTypes: new Set(graph.edgeTypes) };
    membersByGraph.set(graph, members);
  }
  return members;
}

/** The schema of one store, held in memory by the process that serves it. */
export class Catalog {
  readonly vertexTypes = new Map<string, StoredVertexType>();
  readonly edgeTypes = new Map<string, StoredEdgeType>();
  readonly graphs = new Map<string, GraphDef>();
  /** User-defined tuples, global and graph-local (one name space with the types). */
  readonly tuples = new Map<string, TupleDef>();
  /** Schema change jobs, by name (a name space of their own). */
  readonly jobs = new Map<string, SchemaJobDef>();
  /** Reverse edge name → forward edge type name. */
  readonly reverseNames = new Map<string, string>();
  readonly vertexTypesById = new Map<number, StoredVertexType>();
  readonly edgeTypesById = new Map<number, StoredEdgeType>();
  /** Bytes of the stored definitions (their JSON), in all and by name (names share one space). */
  bytes = 0;
  private readonly sizes = new Map<string, number>();

  constructor(
    /** Bumped by every schema change; REST++ reports it as `version.schema`. */
    public version: number,
  ) {}

  // Changes, as the store has just committed them, with the bytes of the definition stored:
  // each costs what it changes, not the whole schema, so a request of many schema statements
  // takes time linear in their number.

  addVertexType(v: StoredVertexType, bytes: number): void {
    this.vertexTypes.set(v.name, v);
    this.vertexTypesById.set(v.id, v);
    this.account(v.name, bytes);
  }

  addEdgeType(e: StoredEdgeType, bytes: number): void {
    this.edgeTypes.set(e.name, e);
    this.edgeTypesById.set(e.id, e);
    if (e.reverse) this.reverseNames.set(e.reverse, e.name);
    this.account(e.name, bytes);
  }

  addGraph(g: GraphDef, bytes: number): void {
    this.graphs.set(g.name, g);
    this.account(g.name, bytes);
  }

  addTuple(t: TupleDef, bytes: number): void {
    this.tuples.set(t.name, t);
    this.account(t.name, bytes);
  }

  removeTuple(name: string): void {
    if (this.tuples.delete(name)) this.account(name, 0);
  }

  removeVertexType(name: string): void {
    const v = this.vertexTypes.get(name);
    if (!v) return;
    this.vertexTypes.delete(name);
    this.vertexTypesById.delete(v.id);
    this.account(name, 0);
  }

  removeEdgeType(name: string): void {
    const e = this.edgeTypes.get(name);
    if (!e) return;
    this.edgeTypes.delete(name);
    this.edgeTypesById.delete(e.id);
    if (e.reverse) this.reverseNames.delete(e.reverse);
    this.account(name, 0);
  }

  removeGraph(name: string): void {
    if (this.graphs.delete(name)) this.account(name, 0);
  }

  clear(): void {
    for (const map of [this.vertexTypes, this.edgeTypes, this.graphs, this.reverseNames, this.tuples]) map.clear();
    this.jobs.clear();
    this.vertexTypesById.clear();
    this.edgeTypesById.clear();
    this.sizes.clear();
    this.bytes = 0;
  }

  /** Records the bytes a name's definition takes now (0: it is gone). */
  private account(name: string, bytes: number): void {
    this.bytes += bytes - (this.sizes.get(name) ?? 0);
    if (bytes > 0) this.sizes.set(name, bytes);
    else this.sizes.delete(name);
  }

  /** Refuses a definition of `bytes` that would take the stored schema past its limit. */
  checkRoom(bytes: number): void {
    const total = this.bytes + bytes;
    if (total > schemaLimits.bytes)
      throw new CatalogError(
        `The schema would take ${total} bytes, past the limit of ${schemaLimits.bytes} bytes ` +
          'for the definitions of all types and graphs of a workspace; drop some first.',
      );
  }

  /** What already uses a name, if anything: GSQL names share one space. */
  nameUser(name: string): string | undefined {
    if (this.vertexTypes.has(name)) return 'vertex type';
    if (this.edgeTypes.has(name)) return 'edge type';
    if (this.reverseNames.has(name)) return 'reverse edge type';
    if (this.graphs.has(name)) return 'graph';
    if (this.tuples.has(name)) return 'tuple';
    return undefined;
  }

  /** A vertex type of a graph, or undefined when the graph does not hold it. */
  vertexTypeIn(graph: GraphDef, name: string): StoredVertexType | undefined {
    return membersOf(graph).vertexTypes.has(name) ? this.vertexTypes.get(name) : undefined;
  }

  /** An edge type of a graph under its own (forward) name. */
  edgeTypeIn(graph: GraphDef, name: string): StoredEdgeType | undefined {
    return membersOf(graph).edgeTypes.has(name) ? this.edgeTypes.get(name) : undefined;
  }

  /** An edge type of a graph under either of its names. */
  edgeViewIn(graph: GraphDef, name: string): EdgeView | undefined {
    const forward = this.reverseNames.get(name);
    const type = this.edgeTypeIn(graph, forward ?? name);
    return type && { name, type, reversed: forward !== undefined };
  }

  /** Every edge name of a graph: each forward type, followed by its reverse when it has one. */
  edgeViewsOf(graph: GraphDef): EdgeView[] {
    const views: EdgeView[] = [];
    for (const name of graph.edgeTypes) {
      const type = this.edgeTypes.get(name);
      if (!type) continue;
      views.push({ name, type, reversed: false });
      if (type.reverse) views.push({ name: type.reverse, type, reversed: true });
    }
    return views;
  }
}

const pairsByType = new WeakMap<EdgeTypeDef, Set<string>>();
const pairKey = (from: string, to: string) => `${from}\u0000${to}`;

/**
 * Whether an edge type goes FROM `from` TO `to` (as declared, whatever its direction): one
 * look-up however many pairs it declares, its set made at the first.
 */
export function hasPair(type: EdgeTypeDef, from: string, to: string): boolean {
  let pairs = pairsByType.get(type);
  if (!pairs) pairsByType.set(type, (pairs = new Set(type.pairs.map((p) => pairKey(p.from, p.to)))));
  // `FROM *, TO *` and its halves match any vertex type on their side.
  return (
    pairs.has(pairKey(from, to)) ||
    pairs.has(pairKey('*', to)) ||
    pairs.has(pairKey(from, '*')) ||
    pairs.has(pairKey('*', '*'))
  );
}

/** Whether one side of an edge type's pairs (from `endsOf`) admits a vertex type, `*` admitting any. */
export const endsHas = (ends: Set<string>, vertexType: string): boolean => ends.has(vertexType) || ends.has('*');

const endsByType = new WeakMap<EdgeTypeDef, { from: Set<string>; to: Set<string> }>();

/** The vertex types an edge type's pairs start and end at, as sets made at the first look-up. */
export function endsOf(type: EdgeTypeDef): { from: Set<string>; to: Set<string> } {
  let ends = endsByType.get(type);
  if (!ends) {
    ends = { from: new Set(type.pairs.map((p) => p.from)), to: new Set(type.pairs.map((p) => p.to)) };
    endsByType.set(type, ends);
  }
  return ends;
}

/** Names beginning with two underscores are kept for the system (and `__proto__` would break maps). */
export function checkName(name: string, what: string): void {
  if (name.startsWith('__'))
    throw new CatalogError(`The ${what} name ${name} is reserved: names may not begin with "__".`);
}

/** Types a LIST or SET element, a MAP value and a MAP key may have (besides a tuple for the first two). */
const elementTypes: ReadonlySet<string> = new Set(['INT', 'DOUBLE', 'STRING', 'DATETIME']);
const mapKeyTypes: ReadonlySet<string> = new Set(['INT', 'STRING', 'DATETIME']);
const isScalar = (type: string): type is ScalarTypeName => (scalarTypeNames as readonly string[]).includes(type);

/** A tuple a type may use: a global one, or one of the graph the type belongs to. */
function tupleFor(catalog: Catalog, name: string, graph: string | undefined): TupleDef | undefined {
  const t = catalog.tuples.get(name);
  return t && (t.graph === undefined || t.graph === graph) ? t : undefined;
}

/** An attribute's declared type → the shape its values are checked against. */
export function shapeOf(catalog: Catalog, d: AttributeDecl, graph?: string): ValueShape {
  const unknown = (type: string) =>
    new CatalogError(
      `The attribute type ${type} of ${d.name} is not supported; use INT, UINT, FLOAT, DOUBLE, STRING, BOOL, ` +
        'DATETIME, FIXED_BINARY(n), LIST<…>, SET<…>, MAP<…, …> or a tuple defined with TYPEDEF TUPLE.',
    );
  const element = (type: string, allowed: ReadonlySet<string>, what: string): Partial<ValueShape> => {
    if (allowed.has(type)) return { valueType: type as ScalarTypeName };
    if (isScalar(type)) throw new CatalogError(`The ${what} of ${d.name} cannot be ${type}.`);
    const tuple = tupleFor(catalog, type, graph);
    if (!tuple) throw unknown(type);
    return { valueType: 'UDT', tuple };
  };
  switch (d.type) {
    case 'LIST':
    case 'SET':
      return { type: d.type, ...element(d.valueType!, elementTypes, `${d.type} element type`) };
    case 'MAP': {
      if (!mapKeyTypes.has(d.keyType!)) throw new CatalogError(`The MAP key type of ${d.name} cannot be ${d.keyType}.`);
      return {
        type: 'MAP',
        keyType: d.keyType as ScalarTypeName,
        ...element(d.valueType!, elementTypes, 'MAP value type'),
      };
    }
    case 'FIXED_BINARY':
      if (!d.size)
        throw new CatalogError(`FIXED_BINARY needs its size in bytes, as in FIXED_BINARY(8), for ${d.name}.`);
      return { type: 'FIXED_BINARY', fixedSize: d.size };
    default: {
      if (isScalar(d.type)) return { type: d.type };
      const tuple = tupleFor(catalog, d.type, graph);
      if (!tuple) throw unknown(d.type);
      return { type: 'UDT', tuple };
    }
  }
}

export function checkAttributes(
  catalog: Catalog,
  decls: AttributeDecl[],
  owner: string,
  graph?: string,
): AttributeDef[] {
  if (decls.length > schemaLimits.attributesPerType)
    throw new CatalogError(
      `The type ${owner} declares ${decls.length} attributes; a type has at most ` +
        `${schemaLimits.attributesPerType}, the limit of a workspace's schema.`,
    );
  const seen = new Set<string>();
  return decls.map((d) => {
    checkName(d.name, 'attribute');
    if (seen.has(d.name)) throw new CatalogError(`The attribute ${d.name} is declared more than once in ${owner}.`);
    seen.add(d.name);
    const attr: AttributeDef = { name: d.name, ...shapeOf(catalog, d, graph) };
    if (d.default) {
      const checked = checkShapedValue(attr, d.default.value);
      if (!checked.ok) throw new CatalogError(`The DEFAULT of ${d.name} does not fit: ${checked.reason}.`);
      attr.default = checked.value;
    }
    return attr;
  });
}

/** `TYPEDEF TUPLE` → the tuple to store: scalar fields, each named once. */
export function tupleFromDecl(catalog: Catalog, name: string, fields: AttributeDecl[], graph?: string): TupleDef {
  checkNewName(catalog, name);
  if (fields.length > schemaLimits.attributesPerType)
    throw new CatalogError(`The tuple ${name} has more than ${schemaLimits.attributesPerType} fields.`);
  const seen = new Set<string>();
  const tuple: TupleDef = {
    name,
    fields: fields.map((f) => {
      if (seen.has(f.name)) throw new CatalogError(`The field ${f.name} is declared more than once in ${name}.`);
      seen.add(f.name);
      if (!isScalar(f.type) || f.valueType !== undefined)
        throw new CatalogError(`The field ${f.name} of ${name} has type ${f.type}; a tuple field is a scalar type.`);
      return f.size === undefined ? { name: f.name, type: f.type } : { name: f.name, type: f.type, size: f.size };
    }),
  };
  if (graph !== undefined) tuple.graph = graph;
  return tuple;
}

function checkPrimaryIdType(type: string, name: string): PrimaryIdTypeName {
  if (!(primaryIdTypeNames as readonly string[]).includes(type))
    throw new CatalogError(
      `The primary id ${name} has type ${type}; a primary id must be one of ${primaryIdTypeNames.join(', ')}.`,
    );
  return type as PrimaryIdTypeName;
}

/** Refuses one more type past the limit of types. */
function checkTypeCount(catalog: Catalog): void {
  if (catalog.vertexTypes.size + catalog.edgeTypes.size >= schemaLimits.types)
    throw new CatalogError(
      `A workspace holds at most ${schemaLimits.types} vertex and edge types, the limit of its schema; ` +
        'drop some first.',
    );
}

function checkNewName(catalog: Catalog, name: string): void {
  checkName(name, 'type or graph');
  const user = catalog.nameUser(name);
  if (user) throw new CatalogError(`The name ${name} is already used by a ${user}.`);
}

/** `CREATE VERTEX` → the vertex type to store, or a CatalogError naming what is wrong. */
export function vertexTypeFromDecl(catalog: Catalog, decl: VertexDecl, graph?: string): VertexTypeDef {
  checkNewName(catalog, decl.name);
  checkTypeCount(catalog);
  const options: Record<string, string> = {};
  for (const [key, value] of Object.entries(decl.options)) {
    if (key !== 'STATS' && key !== 'PRIMARY_ID_AS_ATTRIBUTE')
      throw new CatalogError(`The vertex option ${key} is not supported; use STATS or PRIMARY_ID_AS_ATTRIBUTE.`);
    options[key] = value;
  }
  const asAttribute = (options.PRIMARY_ID_AS_ATTRIBUTE ?? 'false').toLowerCase();
  if (asAttribute !== 'true' && asAttribute !== 'false')
    throw new CatalogError('PRIMARY_ID_AS_ATTRIBUTE must be "true" or "false".');
  const config = { STATS: options.STATS ?? 'OUTDEGREE_BY_EDGETYPE', PRIMARY_ID_AS_ATTRIBUTE: asAttribute };

  const local = graph === undefined ? {} : { graph };
  if (decl.primaryId && (decl.primaryKey !== undefined || decl.compositeKey))
    throw new CatalogError(`The vertex type ${decl.name} declares both PRIMARY_ID and PRIMARY KEY.`);
  if (decl.primaryId) {
    checkName(decl.primaryId.name, 'primary id');
    const idType = checkPrimaryIdType(decl.primaryId.type, decl.primaryId.name);
    const attributes = checkAttributes(catalog, decl.attributes, decl.name, graph);
    if (attributes.some((a) => a.name === decl.primaryId!.name))
      throw new CatalogError(`The attribute ${decl.primaryId.name} has the name of the primary id.`);
    if (asAttribute === 'true') attributes.unshift({ name: decl.primaryId.name, type: idType, isPrimaryKey: true });
    return {
      name: decl.name,
      ...local,
      primaryId: { name: decl.primaryId.name, type: idType },
      primaryKeyForm: false,
      attributes,
      config,
    };
  }
  if (decl.compositeKey) return compositeKeyType(catalog, decl, config, graph);
  if (decl.primaryKey === undefined)
    throw new CatalogError(`The vertex type ${decl.name} needs a PRIMARY_ID or a PRIMARY KEY.`);
  const attributes = checkAttributes(catalog, decl.attributes, decl.name, graph);
  const key = attributes.find((a) => a.name === decl.primaryKey);
  if (!key) throw new CatalogError(`The PRIMARY KEY ${decl.primaryKey} is not an attribute of ${decl.name}.`);
  const idType = checkPrimaryIdType(key.type, key.name);
  if (key.default !== undefined) throw new CatalogError(`The PRIMARY KEY ${key.name} cannot have a DEFAULT.`);
  key.isPrimaryKey = true;
  return {
    name: decl.name,
    ...local,
    primaryId: { name: key.name, type: idType },
    primaryKeyForm: true,
    attributes,
    config: { ...config, PRIMARY_ID_AS_ATTRIBUTE: 'true' },
  };
}

/**
 * `PRIMARY KEY (a, b, …)`: the key attributes are scalar attributes like the others, and the
 * vertex id is their values joined by commas, in the key's order (a STRING id).
 */
function compositeKeyType(
  catalog: Catalog,
  decl: VertexDecl,
  config: Record<string, string>,
  graph: string | undefined,
): VertexTypeDef {
  const attributes = checkAttributes(catalog, decl.attributes, decl.name, graph);
  const keys = decl.compositeKey!;
  const seen = new Set<string>();
  for (const k of keys) {
    const attr = attributes.find((a) => a.name === k);
    if (!attr) throw new CatalogError(`The PRIMARY KEY attribute ${k} is not an attribute of ${decl.name}.`);
    if (seen.has(k)) throw new CatalogError(`The PRIMARY KEY names ${k} more than once.`);
    seen.add(k);
    if (!isScalar(attr.type)) throw new CatalogError(`The PRIMARY KEY attribute ${k} must have a scalar type.`);
    if (attr.default !== undefined) throw new CatalogError(`The PRIMARY KEY attribute ${k} cannot have a DEFAULT.`);
  }
  return {
    name: decl.name,
    ...(graph === undefined ? {} : { graph }),
    primaryId: { name: keys.join(','), type: 'STRING' },
    primaryKeyForm: true,
    compositeKey: keys,
    attributes,
    config: { ...config, PRIMARY_ID_AS_ATTRIBUTE: 'true' },
  };
}

/** A vertex type an edge of `graph` (undefined: a global edge) may use: global, or local to the same graph. */
function checkEnd(catalog: Catalog, name: string, graph: string | undefined): void {
  if (name === '*') return;
  const v = catalog.vertexTypes.get(name);
  if (!v || (v.graph !== undefined && v.graph !== graph))
    throw new CatalogError(`The vertex type ${name} does not exist.`);
}

/** `CREATE … EDGE` → the edge type to store. */
export function edgeTypeFromDecl(catalog: Catalog, decl: EdgeDecl, graph?: string): EdgeTypeDef {
  checkNewName(catalog, decl.name);
  checkTypeCount(catalog);
  for (const { from, to } of decl.pairs) {
    checkEnd(catalog, from, graph);
    checkEnd(catalog, to, graph);
  }
  const def: EdgeTypeDef = {
    name: decl.name,
    ...(graph === undefined ? {} : { graph }),
    directed: decl.directed,
    pairs: decl.pairs,
    attributes: checkAttributes(catalog, decl.attributes, decl.name, graph),
  };
  for (const [key, value] of Object.entries(decl.options)) {
    if (key !== 'REVERSE_EDGE') throw new CatalogError(`The edge option ${key} is not supported; use REVERSE_EDGE.`);
    if (!decl.directed) throw new CatalogError(`The undirected edge type ${decl.name} cannot have a REVERSE_EDGE.`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new CatalogError(`The REVERSE_EDGE name ${value} is not valid.`);
    if (value === decl.name) throw new CatalogError(`The REVERSE_EDGE of ${decl.name} needs a name of its own.`);
    checkNewName(catalog, value);
    def.reverse = value;
  }
  return def;
}

/** `CREATE GRAPH g (…)` → the graph, each edge type needing its vertex types in the graph too. */
export function graphFromStatement(catalog: Catalog, name: string, all: boolean, types: string[]): GraphDef {
  checkNewName(catalog, name);
  if (catalog.graphs.size >= schemaLimits.graphs)
    throw new CatalogError(
      `A workspace holds at most ${schemaLimits.graphs} graphs, the limit of its schema; drop one first.`,
    );
  if (all) {
    // `*` is every global type: another graph's local types stay its own.
    const global = <T extends { name: string; graph?: string }>(m: Map<string, T>) =>
      [...m.values()].filter((t) => t.graph === undefined).map((t) => t.name);
    return { name, vertexTypes: global(catalog.vertexTypes), edgeTypes: global(catalog.edgeTypes) };
  }
  // Sets, in the order first named: a list of n types is read in time linear in n.
  const vertexTypes = new Set<string>();
  const edgeTypes = new Set<string>();
  for (const t of types) {
    const local = catalog.vertexTypes.get(t)?.graph ?? catalog.edgeTypes.get(t)?.graph;
    if (local !== undefined) throw new CatalogError(`The type ${t} is local to the graph ${local}.`);
    if (catalog.vertexTypes.has(t)) vertexTypes.add(t);
    else if (catalog.edgeTypes.has(t)) edgeTypes.add(t);
    else if (catalog.reverseNames.has(t)) edgeTypes.add(catalog.reverseNames.get(t)!);
    else throw new CatalogError(`The vertex or edge type ${t} does not exist.`);
  }
  for (const e of edgeTypes)
    for (const { from, to } of catalog.edgeTypes.get(e)!.pairs)
      for (const v of [from, to])
        if (v !== '*' && !vertexTypes.has(v))
          throw new CatalogError(`The edge type ${e} needs the vertex type ${v} in the graph.`);
  return { name, vertexTypes: [...vertexTypes], edgeTypes: [...edgeTypes] };
}

/** For each name, the first of `owners` (in their order) whose `uses` lists it. */
function firstUsers<T>(owners: Iterable<T>, uses: (owner: T) => Iterable<string>): Map<string, T> {
  const users = new Map<string, T>();
  for (const owner of owners) for (const name of uses(owner)) if (!users.has(name)) users.set(name, owner);
  return users;
}

/**
 * Refuses to drop a vertex type that an edge type or a graph still uses. The users are found
 * in one pass over the schema, not one per name dropped.
 */
export function checkDropVertex(catalog: Catalog, names: string[]): void {
  const edgeUsers = firstUsers(catalog.edgeTypes.values(), (e) => e.pairs.flatMap((p) => [p.from, p.to]));
  const graphUsers = firstUsers(catalog.graphs.values(), (g) => g.vertexTypes);
  for (const name of names) {
    if (!catalog.vertexTypes.has(name)) throw new CatalogError(`The vertex type ${name} does not exist.`);
    const edge = edgeUsers.get(name);
    if (edge) throw new CatalogError(`The vertex type ${name} is used by the edge type ${edge.name}; drop that first.`);
    const graph = graphUsers.get(name);
    if (graph)
      throw new CatalogError(`The vertex type ${name} is used by the graph ${graph.name}; drop the graph first.`);
  }
}

/** Refuses to drop an edge type that a graph still uses. */
export function checkDropEdge(catalog: Catalog, names: string[]): void {
  const graphUsers = firstUsers(catalog.graphs.values(), (g) => g.edgeTypes);
  for (const name of names) {
    if (!catalog.edgeTypes.has(name)) {
      const forward = catalog.reverseNames.get(name);
      throw new CatalogError(
        forward
          ? `${name} is the reverse edge of ${forward}; drop ${forward} instead.`
          : `The edge type ${name} does not exist.`,
      );
    }
    const graph = graphUsers.get(name);
    if (graph)
      throw new CatalogError(`The edge type ${name} is used by the graph ${graph.name}; drop the graph first.`);
  }
}
