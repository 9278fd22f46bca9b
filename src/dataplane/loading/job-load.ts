import { checkPrimaryId } from '../attribute-values.js';
import { hasPair, type StoredVertexType } from '../catalog.js';
import type { GraphStore } from '../graph-store.js';
import type { AttributeValue } from '../schema-types.js';
import { ordered } from '../upsert-plan.js';
import { writingRows } from '../query/graph-view.js';
import { BulkWriter } from './bulk-write.js';
import { compileTargets, planTokens, type CompiledDelete, type CompiledTarget, type FilePlan } from './job-compile.js';
import { Deleter, deletedName } from './job-delete.js';
import { INVALID, type Folded, type Slot } from './job-values.js';
import { CsvRecords } from './csv-records.js';
import { JsonLines } from './json-lines.js';
import type { GraphDef } from '../schema-types.js';

/** Per-type object counts, in TigerGraph's statistics shape. */
export interface ObjectStatistics {
  typeName: string;
  validObject: number;
  noIdFound: number;
  invalidAttribute: number;
  invalidPrimaryId: number;
}

/** The statistics of one loaded file, as TigerGraph's `POST /ddl` reports them. */
export interface FileStatistics {
  validLine: number;
  rejectLine: number;
  failedConditionLine: number;
  notEnoughToken: number;
  invalidJson: number;
  oversizeToken: number;
  vertex: ObjectStatistics[];
  edge: ObjectStatistics[];
  deleteVertex: ObjectStatistics[];
  deleteEdge: ObjectStatistics[];
}

/**
 * Vertex and edge objects gathered before they are written: large enough that a request of a
 * few MiB is written in key order at once, small enough to bound memory.
 */
const BATCH = 1 << 18;

/**
 * The values a line gives, by attribute name; undefined when one does not fit. What it gives
 * attributes that combine (collections, REDUCE) goes into `folds` (given only for targets that
 * have such slots).
 */
function updatesOf(slots: Slot[], fields: string[], folds?: Folded) {
  const patch: Record<string, AttributeValue> = {};
  for (const { attr, read, combine } of slots) {
    if (!read) continue;
    const value = read(fields);
    if (value === undefined) continue;
    if (value === INVALID) return undefined;
    if (combine) folds![attr.name] = { by: combine, value };
    else patch[attr.name] = value;
  }
  return patch;
}

type IdOutcome = { id: string } | { missing: true } | { invalid: true };

function idOf(type: StoredVertexType, text: string | undefined): IdOutcome {
  if (text === undefined || text === '') return { missing: true };
  const checked = checkPrimaryId(type.primaryId.type, text);
  return checked.ok ? { id: String(checked.value) } : { invalid: true };
}

const emptyStats = (typeName: string): ObjectStatistics => ({
  typeName,
  validObject: 0,
  noIdFound: 0,
  invalidAttribute: 0,
  invalidPrimaryId: 0,
});

/**
 * Loads one file's lines, fed as text chunks, in one transaction: a line with too few columns
 * is rejected, an object whose id or value does not fit is counted and left out, and anything
 * else that fails (a column name missing from the header, a file that cannot be read further)
 * changes nothing. Objects are gathered and written in bulk (BulkWriter) with the outcome of
 * REST++ upserts line by line, so memory stays bounded by the batch and the chunk, whatever
 * the file's size.
 */
export function loadFile(
  store: GraphStore,
  graph: GraphDef,
  plan: FilePlan,
  chunks: Iterable<string>,
  opts: { separator?: string; eol?: string } = {},
): FileStatistics {
  const { options } = plan;
  const json = options.json ? new JsonLines(planTokens(plan)) : undefined;
  const reader = json
    ? new CsvRecords(undefined, opts.eol ?? options.eol, undefined)
    : new CsvRecords(opts.separator ?? options.separator, opts.eol ?? options.eol, options.quote);
  const stats: FileStatistics = {
    validLine: 0,
    rejectLine: 0,
    failedConditionLine: 0,
    notEnoughToken: 0,
    invalidJson: 0,
    oversizeToken: 0,
    vertex: [],
    edge: [],
    deleteVertex: [],
    deleteEdge: [],
  };
  const statsByType = new Map<string, ObjectStatistics>();
  const statsOf = (kind: 'vertex' | 'edge' | 'deleteVertex' | 'deleteEdge', name: string) => {
    const key = `${kind}:${name}`;
    let s = statsByType.get(key);
    if (!s) {
      statsByType.set(key, (s = emptyStats(name)));
      stats[kind].push(s);
    }
    return s;
  };

  let compiled: { targets: CompiledTarget[]; deletes: CompiledDelete[]; columns: number } | undefined;
  let needHeader = options.header;

  const line = (writer: BulkWriter, deleter: Deleter, record: string[]) => {
    if (needHeader) {
      needHeader = false;
      compiled = compileTargets(store, graph, plan, record);
      for (const t of compiled.targets) statsOf(t.kind, t.kind === 'vertex' ? t.type.name : t.view.name);
      return;
    }
    compiled ??= compileTargets(store, graph, plan, json?.keys);
    // A JSON line's values come in the order of the keys the job reads, as a CSV line's columns.
    const fields = json ? json.values(record[0]!) : record.length < compiled.columns ? 'missing' : record;
    if (typeof fields === 'string') {
      if (fields === 'invalid') stats.invalidJson++;
      else stats.notEnoughToken++;
      stats.rejectLine++;
      return;
    }
    stats.validLine++;
    let failedCondition = false;
    // A line's deletes come before its loads; the loads of earlier lines are written first.
    for (const d of compiled.deletes) {
      if (d.where && !d.where(fields)) {
        failedCondition = true;
        continue;
      }
      const { target } = d;
      const s =
        target.kind === 'vertex'
          ? statsOf('deleteVertex', target.type.name)
          : statsOf('deleteEdge', deletedName(target));
      const from = idOf(target.kind === 'edge' ? target.from : target.type, d.from(fields));
      const to = target.kind === 'edge' && d.to ? idOf(target.to, d.to(fields)) : undefined;
      if ('missing' in from || (to && 'missing' in to)) s.noIdFound++;
      else if ('invalid' in from || (to && 'invalid' in to)) s.invalidPrimaryId++;
      else {
        if (writer.pending > 0) writer.flush();
        if (target.kind === 'vertex') deleter.vertex(target.type, from.id);
        else if (target.kind === 'anyEdge') deleter.anyEdge(target.type, from.id, target.edgeTypes);
        else deleter.edge(target.view, target.from, from.id, target.to, to?.id);
        s.validObject++;
      }
    }
    for (const t of compiled.targets) {
      if (t.where && !t.where(fields)) {
        failedCondition = true;
        continue;
      }
      if (t.kind === 'vertex') {
        const s = statsOf('vertex', t.type.name);
        const id = idOf(t.type, t.id(fields));
        if ('missing' in id) s.noIdFound++;
        else if ('invalid' in id) s.invalidPrimaryId++;
        else {
          const folds = t.combines ? {} : undefined;
          const patch = updatesOf(t.slots, fields, folds);
          if (!patch) s.invalidAttribute++;
          else {
            writer.vertex(t.type, id.id, patch, folds);
            s.validObject++;
          }
        }
      } else {
        const s = statsOf('edge', t.view.name);
        const fromType = t.from(fields);
        const toType = t.to(fields);
        // End types named on the line that the edge type does not join.
        if (!fromType || !toType || (t.endsVary && !hasPair(t.view.type, fromType.name, toType.name))) {
          s.invalidAttribute++;
          continue;
        }
        const src = idOf(fromType, t.src(fields));
        const tgt = idOf(toType, t.tgt(fields));
        if ('missing' in src || 'missing' in tgt) s.noIdFound++;
        else if ('invalid' in src || 'invalid' in tgt) s.invalidPrimaryId++;
        else {
          const folds = t.combines ? {} : undefined;
          const patch = updatesOf(t.slots, fields, folds);
          if (!patch) s.invalidAttribute++;
          else {
            if (t.view.type.directed) writer.edge(t.view, fromType, src.id, toType, tgt.id, patch, folds);
            else {
              const { from, to } = ordered({ type: fromType, id: src.id }, { type: toType, id: tgt.id });
              writer.edge(t.view, from.type, from.id, to.type, to.id, patch, folds);
            }
            s.validObject++;
          }
        }
      }
    }
    if (failedCondition) stats.failedConditionLine++;
    if (writer.pending >= BATCH) writer.flush();
  };

  // A few lines loaded between queries are taken into the traversal view, as upserts are.
  writingRows(store, (touched) =>
    BulkWriter.write(
      store,
      (writer) => {
        const deleter = new Deleter(store, touched);
        for (const chunk of chunks) for (const fields of reader.feed(chunk)) line(writer, deleter, fields);
        for (const fields of reader.finish()) line(writer, deleter, fields);
      },
      touched,
    ),
  );
  stats.oversizeToken += reader.oversize;
  stats.rejectLine += reader.oversize;
  return stats;
}
