/** Loading jobs as the GSQL parser reads them and as the store keeps them (JSON). */

/** One item of a `VALUES (…)` list. */
export type LoadValue =
  | { kind: 'column'; index: number }
  | { kind: 'columnName'; name: string }
  /** `_`: the attribute keeps its current value (its default on a new row). */
  | { kind: 'skip' }
  | { kind: 'literal'; value: string }
  | { kind: 'call'; fn: string; args: LoadValue[] };

export interface LoadTarget {
  kind: 'vertex' | 'edge';
  type: string;
  values: LoadValue[];
  line: number;
  column: number;
}

/** The `USING` options of one `LOAD`, with TigerGraph's defaults filled in. */
export interface LoadOptions {
  separator: string;
  eol: string;
  header: boolean;
  quote?: '"' | "'";
}

export interface LoadStatementDef {
  file: string;
  targets: LoadTarget[];
  options: LoadOptions;
}

export interface LoadingJobDef {
  name: string;
  graph: string;
  /** `DEFINE FILENAME f [= "path"]`, in order. */
  files: { name: string; path?: string }[];
  loads: LoadStatementDef[];
}

/** The statements about loading jobs, as the GSQL parser hands them on. */
export type LoadingStatement =
  | { kind: 'createLoadingJob'; job: LoadingJobDef }
  | { kind: 'runLoadingJob'; name: string; files: Record<string, string> };
