import { CatalogError, checkDropVertex, vertexTypeFromDecl } from './catalog.js';
import type { GraphStore } from './graph-store.js';
import { GsqlSyntaxError, parseGsql } from './gsql-parser.js';
import { addToGraph, removeFromGraph } from './schema-change.js';

/**
 * Global vertex types managed one request at a time, as the GSQL server's
 * `/gsql/v1/schema/vertices` endpoint does: create them (from CREATE VERTEX statements or their
 * schema JSON), add them to a graph, take them out of one, drop them. Each request is one
 * schema transaction: a refused name leaves the schema as it was.
 */

/** `CREATE VERTEX …` statements, each one statement, all created or none. */
export function createGlobalVertexTypes(store: GraphStore, statements: string[]): string {
  const decls = statements.map((text) => {
    let parsed;
    try {
      parsed = parseGsql(text);
    } catch (err) {
      if (err instanceof GsqlSyntaxError) throw new CatalogError(`Syntax error in "${text}": ${err.message}`);
      throw err;
    }
    const [only, ...rest] = parsed;
    if (!only || rest.length > 0 || only.kind !== 'createVertex')
      throw new CatalogError(`"${text}" is not one CREATE VERTEX statement.`);
    return only.decl;
  });
  if (decls.length === 0) throw new CatalogError('No vertex type to create.');
  store.schemaTransaction(() => {
    for (const decl of decls) store.createVertexType(vertexTypeFromDecl(store.catalog, decl));
  });
  return `Successfully created vertex types: [${decls.map((d) => d.name).join(', ')}].`;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const word = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v))
    throw new CatalogError(`${what} must be a name, not ${JSON.stringify(v)}.`);
  return v;
};

/** The GSQL type of a schema JSON `AttributeType`: `{Name, ValueTypeName, KeyTypeName, …}`. */
function typeText(t: unknown, where: string): string {
  if (!isObject(t)) throw new CatalogError(`${where}: AttributeType must be an object.`);
  const name = word(t.Name, `${where}: AttributeType.Name`).toUpperCase();
  const element = () =>
    t.ValueTypeName === 'UDT'
      ? word(t.ValueTypeTupleName, `${where}: ValueTypeTupleName`)
      : word(t.ValueTypeName, `${where}: ValueTypeName`);
  switch (name) {
    case 'LIST':
    case 'SET':
      return `${name}<${element()}>`;
    case 'MAP':
      return `MAP<${word(t.KeyTypeName, `${where}: KeyTypeName`)}, ${element()}>`;
    case 'FIXED_BINARY':
      if (!Number.isInteger(t.FixedSize)) throw new CatalogError(`${where}: FIXED_BINARY needs a FixedSize.`);
      return `FIXED_BINARY(${t.FixedSize as number})`;
    case 'UDT':
      return word(t.TupleName, `${where}: TupleName`);
    default:
      return name;
  }
}

/** The CREATE VERTEX statement of a vertex type's schema JSON (`Name`, `PrimaryId`, `Attributes`, `Config`). */
export function vertexStatementOf(json: unknown): string {
  if (!isObject(json)) throw new CatalogError('Each vertex type must be a JSON object.');
  const name = word(json.Name, 'Name');
  const pk = json.PrimaryId;
  if (!isObject(pk)) throw new CatalogError(`${name}: PrimaryId is required.`);
  const attributes = json.Attributes ?? [];
  if (!Array.isArray(attributes)) throw new CatalogError(`${name}: Attributes must be a list.`);
  const parts = [
    `PRIMARY_ID ${word(pk.AttributeName, `${name}: PrimaryId.AttributeName`)} ${typeText(pk.AttributeType, name)}`,
  ];
  for (const a of attributes) {
    if (!isObject(a)) throw new CatalogError(`${name}: each attribute must be an object.`);
    parts.push(`${word(a.AttributeName, `${name}: AttributeName`)} ${typeText(a.AttributeType, name)}`);
  }
  const config = isObject(json.Config) ? json.Config : {};
  const options: string[] = [];
  if (typeof config.STATS === 'string') options.push(`STATS=${JSON.stringify(config.STATS)}`);
  const asAttribute = config.PRIMARY_ID_AS_ATTRIBUTE ?? pk.PrimaryIdAsAttribute;
  if (asAttribute === true || asAttribute === 'true') options.push('primary_id_as_attribute="true"');
  const withPart = options.length > 0 ? ` WITH ${options.join(', ')}` : '';
  return `CREATE VERTEX ${name} (${parts.join(', ')})${withPart}`;
}

/** Adds global vertex types to a graph. */
export function addGlobalVertexTypes(store: GraphStore, graph: string, names: string[]): string {
  const g = store.catalog.graphs.get(graph);
  if (!g) throw new CatalogError(`The graph ${graph} does not exist.`);
  if (names.length === 0) throw new CatalogError('No vertex type to add.');
  for (const n of names) {
    const type = store.catalog.vertexTypes.get(n);
    if (!type || type.graph !== undefined) throw new CatalogError(`The global vertex type ${n} does not exist.`);
    if (g.vertexTypes.includes(n)) throw new CatalogError(`The vertex type ${n} is already in the graph ${graph}.`);
  }
  store.schemaTransaction(() => {
    for (const n of names) addToGraph(store, graph, 'vertexTypes', n);
  });
  return `Successfully added vertex types to graph ${graph}: [${names.join(', ')}].`;
}

/**
 * With a graph: takes global vertex types out of it, and drops its local ones. Without: drops
 * global vertex types, which no graph or edge type may still use.
 */
export function dropVertexTypes(store: GraphStore, names: string[], graph?: string): string {
  if (names.length === 0) throw new CatalogError('No vertex type to drop.');
  store.schemaTransaction(() => {
    if (graph === undefined) {
      for (const n of names)
        if (store.catalog.vertexTypes.get(n)?.graph !== undefined)
          throw new CatalogError(
            `The vertex type ${n} is local to the graph ${store.catalog.vertexTypes.get(n)!.graph}.`,
          );
      checkDropVertex(store.catalog, names);
      store.dropVertexTypes(names);
      return;
    }
    const g = store.catalog.graphs.get(graph);
    if (!g) throw new CatalogError(`The graph ${graph} does not exist.`);
    for (const n of names)
      if (!g.vertexTypes.includes(n)) throw new CatalogError(`The vertex type ${n} is not in the graph ${graph}.`);
    removeFromGraph(store, graph, 'vertexTypes', names);
    const local = names.filter((n) => store.catalog.vertexTypes.get(n)?.graph === graph);
    if (local.length > 0) {
      checkDropVertex(store.catalog, local);
      store.dropVertexTypes(local);
    }
  });
  return graph === undefined
    ? `Successfully dropped vertex types: [${names.join(', ')}].`
    : `Successfully dropped vertex types from graph ${graph}: [${names.join(', ')}].`;
}
