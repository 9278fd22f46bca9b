import type { GraphStore } from './graph-store.js';
import { attributeSql } from './query-params.js';
import { isNumericType, type AttributeDef } from './schema-types.js';

/** Per attribute: MIN, MAX and AVG of a number, or the TRUE and FALSE counts of a BOOL. */
export type AttributeStats = Record<string, Record<string, number | null>>;

/** Whether `stat_vertex_attr`/`stat_edge_attr` has anything to report for these attributes. */
export function hasStats(attributes: AttributeDef[]): boolean {
  return attributes.some((a) => isNumericType(a.type) || a.type === 'BOOL');
}

/**
 * Statistics of the numeric and boolean attributes of one vertex or edge type, computed in
 * one pass over its rows. A type without rows reports no attribute, as TigerGraph does (for
 * pyTigerGraph's getVertexStats, `{}`).
 */
export function attributeStats(
  store: GraphStore,
  table: 'vertices' | 'edges',
  typeId: number,
  attributes: AttributeDef[],
): AttributeStats {
  const columns: string[] = [];
  const reads: [string, string][] = [];
  for (const a of attributes) {
    const value = attributeSql(a.name);
    if (isNumericType(a.type)) {
      for (const [label, fn] of [
        ['MIN', 'min'],
        ['MAX', 'max'],
        ['AVG', 'avg'],
      ] as const) {
        columns.push(`${fn}(${value})`);
        reads.push([a.name, label]);
      }
    } else if (a.type === 'BOOL') {
      columns.push(`total(${value} = 1)`, `total(${value} = 0)`);
      reads.push([a.name, 'TRUE'], [a.name, 'FALSE']);
    }
  }
  const [rows, ...row] = store.db
    .prepare(`SELECT count(*), ${columns.join(', ')} FROM ${table} WHERE type_id = ?`)
    .raw()
    .get(typeId) as [number, ...(number | null)[]];
  const stats: AttributeStats = {};
  if (rows === 0) return stats;
  reads.forEach(([attr, label], i) => {
    stats[attr] ??= {};
    stats[attr][label] = row[i] ?? null;
  });
  return stats;
}
