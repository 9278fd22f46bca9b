/** The statements the GSQL parser produces. */

import type { LoadingStatement } from './loading/job-types.js';

/** A literal as written in a `DEFAULT` clause; typed against its attribute when it runs. */
export type Literal =
  { kind: 'number'; value: number } | { kind: 'string'; value: string } | { kind: 'bool'; value: boolean };

export interface AttributeDecl {
  name: string;
  type: string;
  default?: Literal;
  primaryKey?: boolean;
}

export interface VertexDecl {
  name: string;
  /** `PRIMARY_ID name type` (absent in the PRIMARY KEY form). */
  primaryId?: { name: string; type: string };
  /** Name of the attribute that is the PRIMARY KEY (inline or `PRIMARY KEY (a)`). */
  primaryKey?: string;
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
  | { kind: 'dropGraph'; name: string }
  | { kind: 'dropAll' }
  | { kind: 'clearGraphStore' }
  | { kind: 'ls' }
  | { kind: 'show'; what: 'GRAPH' | 'VERTEX' | 'EDGE'; name: string }
  | { kind: 'unsupported'; what: string }
  | LoadingStatement;

export type Statement = At & StatementBody;
