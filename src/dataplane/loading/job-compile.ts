import { CatalogError, endsHas, endsOf, hasPair, type EdgeView, type StoredVertexType } from '../catalog.js';
import type { GraphStore } from '../graph-store.js';
import type { AttributeDef, GraphDef } from '../schema-types.js';
import { deleteTarget, type DeleteTarget } from './job-delete.js';
import { at, defaultLoadOptions } from './job-types.js';
import type { DeleteStatementDef, LoadingJobDef, LoadOptions, LoadTarget, TextValue } from './job-types.js';
import { applied, checkSlotValue, isText, slotOf, type Getter, type Slot } from './job-values.js';
import { compileCondition, deleteTokens, readsOf, targetTokens, tokenRefusal } from './job-where.js';
import { tokenFunction } from './token-functions.js';

/** Whether a line makes an object of its target: its `WHERE` condition, when it has one. */
type Condition = ((fields: string[]) => boolean) | undefined;

/** A destination clause bound to its file; `combines` when any slot combines (a collection, REDUCE). */
export type CompiledTarget =
  | { kind: 'vertex'; type: StoredVertexType; id: Getter; slots: Slot[]; combines: boolean; where: Condition }
  | {
      kind: 'edge';
      combines: boolean;
      where: Condition;
      view: EdgeView;
      /** The ends' vertex types on a line: undefined when a token names none the edge takes there. */
      from: (fields: string[]) => StoredVertexType | undefined;
      to: (fields: string[]) => StoredVertexType | undefined;
      /** Whether a line names an end's type (the pair is then checked line by line). */
      endsVary: boolean;
      src: Getter;
      tgt: Getter;
      slots: Slot[];
    };

/** What reads one file variable: its options, the targets each line goes to and the DELETEs it feeds, in job order. */
export interface FilePlan {
  options: LoadOptions;
  targets: LoadTarget[];
  deletes: DeleteStatementDef[];
}

/** A `DELETE` bound to its file: what it deletes, and how a line names it. */
export interface CompiledDelete {
  target: DeleteTarget;
  from: Getter;
  to: Getter | undefined;
  where: Condition;
}

/** The tokens and literals a file's lines are read for, by its LOADs and its DELETEs. */
export const planTokens = (plan: FilePlan): TextValue[] =>
  [...plan.targets.flatMap(targetTokens), ...plan.deletes.flatMap(deleteTokens)].flatMap(readsOf);

/**
 * Checks a job against the schema as it is now: at CREATE, and again at each run, since the
 * schema may have changed in between. Refusals are CatalogErrors, in GSQL's words.
 */
export function checkJob(store: GraphStore, job: LoadingJobDef): GraphDef {
  const graph = store.catalog.graphs.get(job.graph);
  if (!graph) throw new CatalogError(`The graph ${job.graph} does not exist.`);
  for (const load of job.loads) for (const t of load.targets) targetOf(store, graph, t);
  const byFile = new Map<string, LoadOptions>();
  for (const load of job.loads) {
    const seen = byFile.get(load.file);
    if (seen && JSON.stringify(seen) !== JSON.stringify(load.options))
      throw new CatalogError(`The LOAD statements of file ${load.file} must use the same USING options.`);
    byFile.set(load.file, load.options);
  }
  // A DELETE reads its file as the LOADs of that file do (it has no USING of its own).
  for (const d of job.deletes ?? []) {
    deleteTarget(store, graph, d);
    const refusal = tokenRefusal(deleteTokens(d).flatMap(readsOf), byFile.get(d.file) ?? defaultLoadOptions);
    if (refusal) throw new CatalogError(`${refusal} ${at(d)}.`);
  }
  return graph;
}

/** The LOAD statements that read file variable `file`, or undefined when the job defines no such file. */
export function filePlan(job: LoadingJobDef, file: string): FilePlan | undefined {
  if (!job.files.some((f) => f.name === file)) return undefined;
  const loads = job.loads.filter((l) => l.file === file);
  return {
    options: loads[0]?.options ?? defaultLoadOptions,
    targets: loads.flatMap((l) => l.targets),
    deletes: (job.deletes ?? []).filter((d) => d.file === file),
  };
}

/** The attributes a `VALUES` list fills, after its id (or ids), in the order GSQL takes them. */
function vertexSlots(type: StoredVertexType): { idIndex: number; attrs: (AttributeDef | undefined)[] } {
  // PRIMARY KEY form: the values are the attributes, the key among them. PRIMARY_ID form: the
  // id first, then the attributes (the id's copy under primary_id_as_attribute is not listed).
  if (type.primaryKeyForm)
    return { idIndex: type.attributes.findIndex((a) => a.isPrimaryKey), attrs: [...type.attributes] };
  return { idIndex: 0, attrs: [undefined, ...type.attributes.filter((a) => !a.isPrimaryKey)] };
}

function targetOf(store: GraphStore, graph: GraphDef, t: LoadTarget) {
  if (t.kind === 'vertex') {
    const type = store.catalog.vertexTypeIn(graph, t.type);
    if (!type) throw new CatalogError(`The vertex type ${t.type} is not in graph ${graph.name} ${at(t)}.`);
    const { idIndex, attrs } = vertexSlots(type);
    if (t.values.length !== attrs.length)
      throw new CatalogError(
        `The LOAD to vertex ${t.type} gives ${t.values.length} values; it takes ${attrs.length} ${at(t)}.`,
      );
    if (t.values[idIndex]!.kind === 'skip')
      throw new CatalogError(`The primary id of vertex ${t.type} cannot be skipped with _ ${at(t)}.`);
    checkValues(t, [idIndex], attrs);
    return { kind: 'vertex' as const, type, idIndex, attrs };
  }
  const view = store.catalog.edgeViewIn(graph, t.type);
  if (!view || view.reversed) throw new CatalogError(`The edge type ${t.type} is not in graph ${graph.name} ${at(t)}.`);
  const from = endOf(store, graph, t, view, 'from');
  const to = endOf(store, graph, t, view, 'to');
  if (!('kind' in from) && !('kind' in to) && !hasPair(view.type, from.name, to.name))
    throw new CatalogError(`The edge type ${t.type} does not go from ${from.name} to ${to.name} ${at(t)}.`);
  const want = 2 + view.type.attributes.length;
  if (t.values.length !== want)
    throw new CatalogError(`The LOAD to edge ${t.type} gives ${t.values.length} values; it takes ${want} ${at(t)}.`);
  if (t.values[0]!.kind === 'skip' || t.values[1]!.kind === 'skip')
    throw new CatalogError(`The ends of edge ${t.type} cannot be skipped with _ ${at(t)}.`);
  const attrs = [undefined, undefined, ...view.type.attributes];
  checkValues(t, [0, 1], attrs);
  return { kind: 'edge' as const, view, from, to, attrs };
}

/**
 * The vertex type of one end of an edge a LOAD writes: the edge type's only one on that side, or
 * the one written after the id — a name, checked now, or a token, read line by line.
 */
function endOf(
  store: GraphStore,
  graph: GraphDef,
  t: LoadTarget,
  view: EdgeView,
  side: 'from' | 'to',
): StoredVertexType | TextValue {
  const written = side === 'from' ? t.fromType : t.toType;
  const ends = endsOf(view.type)[side];
  if (written === undefined) {
    const only = ends.size === 1 ? [...ends][0]! : '*';
    const type = only === '*' ? undefined : store.catalog.vertexTypeIn(graph, only);
    if (!type)
      throw new CatalogError(
        `The edge type ${t.type} has several ${side.toUpperCase()} vertex types: write the ` +
          `${side === 'from' ? 'source' : 'target'}'s type after its id, as ($0 Person, …) ${at(t)}.`,
      );
    return type;
  }
  if (written.kind !== 'literal') return written;
  const type = store.catalog.vertexTypeIn(graph, written.value);
  if (!type || !endsHas(ends, type.name))
    throw new CatalogError(
      `The edge type ${t.type} has no ${side.toUpperCase()} vertex type ${written.value} ` +
        `in graph ${graph.name} ${at(t)}.`,
    );
  return type;
}

/** Ids are text; each attribute's value is one its type takes. */
function checkValues(t: LoadTarget, ids: number[], attrs: (AttributeDef | undefined)[]): void {
  for (const k of ids)
    if (!isText(t.values[k]!))
      throw new CatalogError(
        `An id of ${t.kind} ${t.type} is loaded from a token, a literal or a token function ${at(t)}.`,
      );
  attrs.forEach((attr, k) => {
    if (attr && !ids.includes(k)) checkSlotValue(attr, t.values[k]!, at(t));
  });
}

/**
 * What a `$"name"` is looked up by among a line's named values: the header's column name, or
 * for a nested JSON key its whole path (which no single key can be mistaken for).
 */
export const columnKey = (v: { name: string; path?: string[] }): string => (v.path ? JSON.stringify(v.path) : v.name);

/** A getter for one text value; column names are looked up in the file's header line. */
function getter(v: TextValue, header: string[] | undefined): Getter {
  switch (v.kind) {
    case 'column':
      return (f) => f[v.index];
    case 'columnName': {
      const index = header?.indexOf(columnKey(v)) ?? -1;
      if (index < 0) throw new CatalogError(`The column "${v.name}" is not in the header line of the file.`);
      return (f) => f[index];
    }
    case 'literal':
      return () => v.value;
    case 'skip':
      return () => undefined;
    case 'call':
      return applied(
        v.args.map((a) => getter(a, header)),
        tokenFunction(v.fn),
      );
  }
}

/** The column index a token reads, -1 for a literal. */
function columnOf(v: TextValue, header: string[] | undefined): number {
  if (v.kind === 'column') return v.index;
  if (v.kind === 'columnName') return header?.indexOf(columnKey(v)) ?? -1;
  return -1;
}

/** The targets of a file plan, bound to the header line (when the file has one), and the columns a line needs. */
export function compileTargets(
  store: GraphStore,
  graph: GraphDef,
  plan: FilePlan,
  header: string[] | undefined,
): { targets: CompiledTarget[]; deletes: CompiledDelete[]; columns: number } {
  let columns = 0;
  for (const v of planTokens(plan)) columns = Math.max(columns, columnOf(v, header) + 1);
  const text = (v: TextValue) => getter(v, header);
  const deletes = plan.deletes.map((d) => ({
    target: deleteTarget(store, graph, d),
    from: text(d.from),
    to: d.to && text(d.to),
    where: d.where && compileCondition(d.where, text),
  }));
  const targets = plan.targets.map((t): CompiledTarget => {
    const resolved = targetOf(store, graph, t);
    const where = t.where && compileCondition(t.where, text);
    const idIndex = resolved.kind === 'vertex' ? resolved.idIndex : -1;
    const slots: Slot[] = [];
    resolved.attrs.forEach((attr, k) => {
      if (attr && k !== idIndex) slots.push(slotOf(attr, t.values[k]!, text));
    });
    // The ids are text: targetOf has checked that they are.
    const id = (k: number) => text(t.values[k] as TextValue);
    const combines = slots.some((s) => s.combine !== undefined);
    if (resolved.kind === 'vertex')
      return { kind: 'vertex', type: resolved.type, id: id(idIndex), slots, combines, where };
    const end = (type: StoredVertexType | TextValue, side: 'from' | 'to') => {
      if (!('kind' in type)) return () => type;
      const name = text(type);
      const ends = endsOf(resolved.view.type)[side];
      return (f: string[]) => {
        const v = store.catalog.vertexTypeIn(graph, name(f) ?? '');
        return v && endsHas(ends, v.name) ? v : undefined;
      };
    };
    return {
      kind: 'edge',
      view: resolved.view,
      from: end(resolved.from, 'from'),
      to: end(resolved.to, 'to'),
      endsVary: 'kind' in resolved.from || 'kind' in resolved.to,
      src: id(0),
      tgt: id(1),
      slots,
      combines,
      where,
    };
  });
  return { targets, deletes, columns };
}
