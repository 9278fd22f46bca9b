/** The statements the GSQL parser produces. */
import type { QueryStatement } from './query/ast.js';

import type { LoadingStatement } from './loading/job-types.js';

/** A literal as written in a `DEFAULT` clause; typed against its attribute when it runs. */
export type Literal =
  { kind: 'number'; value: number } | { kind: 'string'; value: string } | { kind: 'bool'; value: boolean };

export interface AttributeDecl {
  name: string;
  /** A built-in type upper-cased (INT, LIST, MAP, FIXED_BINARY, …) or a tuple's name as written. */
  type: string;
  /** The element type of LIST/SET, the value type of MAP (built-in upper-cased, or a tuple's name). */
  valueType?: string;
  keyType?: string;
  /** The number in brackets: FIXED_BINARY(n), and INT(n)/STRING(n) in tuples. */
  size?: number;
  default?: Literal;
  primaryKey?: boolean;
}

export interface VertexDecl {
  name: string;
  /** `PRIMARY_ID name type` (absent in the PRIMARY KEY form). */
  primaryId?: { name: string; type: string };
  /** Name of the attribute that is the PRIMARY KEY (inline or `PRIMARY KEY (a)`). */
  primaryKey?: string;
  /** `PRIMARY KEY (a, b, …)` of more than one attribute. */
  compositeKey?: string[];
  attributes: AttributeDecl[];
  options: Record<string, string>;
}

export interface EdgeDecl {
  name: string;
  directed: boolean;
  pairs: { from: string; to: string }[];
  attributes: AttributeDecl[];
  options: Record<string, string>;
}

/** One step of a schema change job. */
export type JobAction =
  | { kind: 'addVertex'; decl: VertexDecl }
  | { kind: 'addEdge'; decl: EdgeDecl }
  | { kind: 'dropVertex'; names: string[] }
  | { kind: 'dropEdge'; names: string[] }
  | { kind: 'alterAdd'; what: 'VERTEX' | 'EDGE'; type: string; attributes: AttributeDecl[] }
  | { kind: 'alterDrop'; what: 'VERTEX' | 'EDGE'; type: string; names: string[] };

export interface SchemaJobDecl {
  name: string;
  global: boolean;
  /** `FOR GRAPH g`; a local job without it is for the session's graph. */
  graph?: string;
  actions: JobAction[];
  /** The statement as written, which `SHOW JOB` prints. */
  text: string;
}

/** Where a statement starts in the request text, for error messages. */
export interface At {
  line: number;
  column: number;
}

/** A statement without its position. */
export type StatementBody =
  | { kind: 'createVertex'; decl: VertexDecl }
  | { kind: 'createEdge'; decl: EdgeDecl }
  | { kind: 'createGraph'; name: string; all: boolean; types: string[] }
  | { kind: 'useGraph'; name: string }
  | { kind: 'useGlobal' }
  | { kind: 'dropVertex'; names: string[] }
  | { kind: 'dropEdge'; names: string[] }
  | { kind: 'dropGraph'; name: string; cascade: boolean }
  | { kind: 'set'; name: string; value: string }
  | { kind: 'typedefTuple'; name: string; fields: AttributeDecl[] }
  | { kind: 'createSchemaJob'; job: SchemaJobDecl }
  | { kind: 'runSchemaJob'; name: string; global: boolean }
  | { kind: 'dropJob'; names: string[]; all: boolean }
  | { kind: 'showJob'; name: string }
  | { kind: 'upsertVertex'; type: string; values: Literal[] }
  | { kind: 'upsertEdge'; from: string; edge: string; to: string; values: Literal[] }
  | { kind: 'dropAll' }
  | { kind: 'clearGraphStore' }
  | { kind: 'ls' }
  | { kind: 'help' }
  | { kind: 'show'; what: 'GRAPH' | 'VERTEX' | 'EDGE'; name: string }
  | { kind: 'unsupported'; what: string }
  | { kind: 'query'; query: QueryStatement }
  | LoadingStatement;

export type Statement = At & StatementBody;
