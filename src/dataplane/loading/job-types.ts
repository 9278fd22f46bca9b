/** Loading jobs as the GSQL parser reads them and as the store keeps them (JSON). */

/** A value that is text: a token of the line, a literal, a token function of them. */
export type TextValue =
  | { kind: 'column'; index: number }
  /** `$"name"`: a header column, or a JSON key; `$"a":"b"` (JSON only) has the keys from the top in `path`. */
  | { kind: 'columnName'; name: string; path?: string[] }
  /** `_`: the attribute keeps its current value (its default on a new row). */
  | { kind: 'skip' }
  | { kind: 'literal'; value: string }
  | { kind: 'call'; fn: string; args: TextValue[] };

/** One item of a `VALUES (…)` list: text, or a collection or tuple built from text. */
export type LoadValue =
  | TextValue
  /**
   * `SPLIT(v, sep)` into a LIST or SET's elements; `SPLIT(v, pairSep[, sep])` into a MAP's
   * key-value pairs (one pair without `sep`).
   */
  | { kind: 'split'; arg: TextValue; separators: string[] }
  /** `LIST(…)`, `SET(…)` of elements, `MAP(…)` of `(key -> value)` pairs. */
  | { kind: 'collection'; of: 'LIST' | 'SET' | 'MAP'; items: LoadValue[] }
  /** `(key -> value)`: one pair of a MAP. */
  | { kind: 'pair'; key: TextValue; value: LoadValue }
  /** `TupleName(v, …)`: a user-defined tuple, its fields in order. */
  | { kind: 'tuple'; name: string; fields: TextValue[] }
  /** `REDUCE(fn(v))`: the attribute takes `fn` of what it holds and what each line gives. */
  | { kind: 'reduce'; fn: Reducer; arg: LoadValue };

/** The loader's reducer functions (`REDUCE(max($1))`). */
export const reducers = ['max', 'min', 'add', 'and', 'or', 'overwrite', 'ignore_if_exists'] as const;
export type Reducer = (typeof reducers)[number];

/**
 * A `WHERE` condition of a destination clause, as parsed (kept in the job's JSON). Tokens are
 * text; `to_int`, `to_float` and `token_len` make numbers; the parser has checked each operator's
 * operands, so evaluating needs no type checks.
 */
export type LoadCondition =
  | { kind: 'token'; value: TextValue }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number; int: boolean }
  | { kind: 'call'; fn: string; args: LoadCondition[] }
  | { kind: 'unary'; op: '-' | 'NOT'; arg: LoadCondition }
  /** `whole`: a `/` of two whole numbers, which drops the fraction as C++ does. */
  | { kind: 'binary'; op: string; left: LoadCondition; right: LoadCondition; whole?: boolean }
  | { kind: 'is'; test: 'NUMERIC' | 'EMPTY'; arg: LoadCondition }
  | { kind: 'in'; arg: LoadCondition; set: LoadCondition[] }
  | { kind: 'between'; arg: LoadCondition; low: LoadCondition; high: LoadCondition };

export interface LoadTarget {
  kind: 'vertex' | 'edge';
  type: string;
  values: LoadValue[];
  /**
   * An edge's source and target vertex types, written after their ids (`$0 Person`, `$1 $2`): a
   * type name (as a literal) or a token naming one, line by line. Needed when an edge type has
   * several FROM or TO types.
   */
  fromType?: TextValue;
  toType?: TextValue;
  /** Lines for which it is false make no object of this target. */
  where?: LoadCondition;
  line: number;
  column: number;
}

/** Where a statement or clause begins in the job's text, as GSQL's refusals name it. */
export const at = (where: { line: number; column: number }) => `(at line ${where.line}, column ${where.column})`;

/** TigerGraph's `USING` defaults: a LOAD without them, or a file only DELETEs read. */
export const defaultLoadOptions: Readonly<LoadOptions> = { separator: ',', eol: '\n', header: false };

/** The `USING` options of one `LOAD`, with TigerGraph's defaults filled in. */
export interface LoadOptions {
  separator: string;
  eol: string;
  header: boolean;
  quote?: '"' | "'";
  /** `JSON_FILE="true"`: each line is one JSON object, its values read by key. */
  json?: boolean;
}

export interface LoadStatementDef {
  file: string;
  targets: LoadTarget[];
  options: LoadOptions;
}

/**
 * A `DELETE` statement: each line of its file names objects to delete. `vertex`: `DELETE VERTEX
 * T (PRIMARY_ID id)`; `edge`: `DELETE EDGE E (FROM id[, TO id])`, all of its edges from that
 * source when no target is given; `anyEdge`: `DELETE EDGE * (FROM id T)`, every edge from that
 * vertex of type T.
 */
export interface DeleteStatementDef {
  file: string;
  kind: 'vertex' | 'edge' | 'anyEdge';
  /** The vertex type (`vertex`, `anyEdge`) or the edge type (`edge`). */
  type: string;
  /** The vertex's id, or the edges' source id. */
  from: TextValue;
  to?: TextValue;
  where?: LoadCondition;
  line: number;
  column: number;
}

export interface LoadingJobDef {
  name: string;
  graph: string;
  /** `DEFINE FILENAME f [= "path"]`, in order. */
  files: { name: string; path?: string }[];
  loads: LoadStatementDef[];
  /** Absent in jobs stored before DELETE statements were served. */
  deletes?: DeleteStatementDef[];
}

/** The statements about loading jobs, as the GSQL parser hands them on. */
export type LoadingStatement =
  | { kind: 'createLoadingJob'; job: LoadingJobDef }
  | { kind: 'runLoadingJob'; name: string; files: Record<string, string> };
