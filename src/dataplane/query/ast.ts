/** The syntax tree of a GSQL query: what the query parser produces and the compiler reads. */

export interface Pos {
  line: number;
  column: number;
}

/** A type as written: a base type, a collection, a tuple name or an accumulator. */
export type TypeRef =
  | { k: 'base'; name: string; vertexType?: string }
  | { k: 'coll'; name: 'SET' | 'LIST' | 'BAG'; elem: TypeRef }
  | { k: 'map'; key: TypeRef; value: TypeRef }
  | { k: 'tuple'; name: string }
  | { k: 'accum'; acc: AccType };

export type AccType =
  | { name: 'SumAccum' | 'MinAccum' | 'MaxAccum' | 'AvgAccum' | 'ListAccum' | 'SetAccum' | 'BagAccum'; elem: TypeRef }
  | { name: 'OrAccum' | 'AndAccum' | 'BitwiseOrAccum' | 'BitwiseAndAccum'; elem?: TypeRef }
  | { name: 'MapAccum'; key: TypeRef; value: TypeRef }
  | { name: 'HeapAccum'; tuple: string; capacity: Expr; keys: { field: string; desc: boolean }[] }
  | { name: 'GroupByAccum'; keys: { type: TypeRef; name: string }[]; accs: { type: AccType; name: string }[] }
  /** `dims`: each dimension's declared size, 0 where the brackets are empty (`@@a[3][]`); set per variable. */
  | { name: 'ArrayAccum'; elem: AccType; dims: number[] };

export type Expr = Pos &
  (
    | { k: 'lit'; v: number | string | boolean; int?: boolean }
    | { k: 'name'; name: string }
    | { k: 'gacc'; name: string }
    | { k: 'vacc'; obj: Expr; name: string; prime: boolean }
    | { k: 'attr'; obj: Expr; name: string }
    | { k: 'call'; name: string; args: Expr[] }
    | { k: 'method'; obj: Expr; name: string; args: Expr[] }
    | { k: 'bin'; op: string; l: Expr; r: Expr }
    | { k: 'un'; op: '-' | 'NOT'; e: Expr }
    | { k: 'index'; obj: Expr; idx: Expr }
    | { k: 'case'; subject?: Expr; whens: [Expr, Expr][]; else?: Expr }
    | { k: 'arrow'; keys: Expr[]; vals: Expr[] }
    | { k: 'paren'; items: Expr[] }
    | { k: 'list'; items: Expr[] }
    | { k: 'seed'; items: SeedItem[] }
    | { k: 'in'; e: Expr; list: Expr; not: boolean }
    | { k: 'isnull'; e: Expr; not: boolean }
    | { k: 'like'; e: Expr; pattern: Expr; not: boolean }
    | { k: 'select'; sel: Select }
    | { k: 'setop'; op: 'UNION' | 'INTERSECT' | 'MINUS'; l: Expr; r: Expr }
  );

export type SeedItem = { k: 'typeAll'; type: string } | { k: 'any' } | { k: 'expr'; e: Expr };

export interface Hop {
  /** Edge type names; undefined for `_`/`ANY`. */
  edgeTypes?: string[];
  edgeAlias?: string;
  dir: 'out' | 'in' | 'any';
  /** V2's direction of each edge type, `-(E>|<F)-`, where they are given there rather than by the arrow. */
  dirs?: Hop['dir'][];
  /** A V2 repetition, `-(E>*1..3)-`: between `min` and `max` edges (`max` Infinity when unbounded). */
  repeat?: { min: number; max: number };
  /** Target vertex types; undefined for any. */
  targetTypes?: string[];
  targetAlias?: string;
}

export interface Select extends Pos {
  out: string;
  source: string;
  sourceAlias?: string;
  /** The pattern's hops: none, one, or a V2 path `s -(E1>)- m -(E2>)- t`. */
  hops: Hop[];
  /**
   * `SAMPLE 2 EDGE WHEN s.outdegree() > 3`, `SAMPLE 10% TARGET PINNED WHEN …`: that many of the
   * edges of each source (EDGE) or into each target (TARGET) where the condition holds.
   */
  sample?: { size: Expr; percent: boolean; by: 'EDGE' | 'TARGET'; when: Expr };
  where?: Expr;
  accum: Stmt[];
  postAccum: Stmt[][];
  having?: Expr;
  orderBy: { e: Expr; desc: boolean }[];
  limit?: Expr;
}

export interface PrintItem {
  e: Expr;
  /** The JSON key: `AS name`, else the expression as written. */
  key: string;
  projection?: { e: Expr; key: string }[];
}

export type Stmt = Pos &
  (
    | { k: 'typedef'; name: string; fields: { name: string; type: TypeRef }[] }
    /** `dims`: an ArrayAccum variable's `[3][]`, each size or 0 where empty. */
    | { k: 'accDecl'; type: AccType; vars: { name: string; global: boolean; dims?: number[]; init?: Expr }[] }
    | { k: 'varDecl'; type: TypeRef; vars: { name: string; init?: Expr }[] }
    | { k: 'assign'; target: Expr; op: '=' | '+=' | '-='; value: Expr }
    | { k: 'if'; branches: { cond: Expr; body: Stmt[] }[]; else?: Stmt[] }
    | { k: 'while'; cond: Expr; limit?: Expr; body: Stmt[] }
    | { k: 'foreach'; vars: string[]; iter: Expr | { range: [Expr, Expr, Expr?] }; body: Stmt[] }
    | { k: 'case'; subject?: Expr; whens: { cond: Expr; body: Stmt[] }[]; else?: Stmt[] }
    | { k: 'break' }
    | { k: 'continue' }
    /** `where`: which items print (see Compiler.print); `toCsv`: a FILE variable or a path to write lines to. */
    | { k: 'print'; items: PrintItem[]; where?: Expr; toCsv?: Expr }
    | { k: 'return'; e?: Expr }
    | { k: 'expr'; e: Expr }
    | { k: 'raise'; name: string; args: Expr[] }
    | { k: 'exception'; name: string; code: Expr }
    | { k: 'try'; body: Stmt[]; handlers: { name?: string; body: Stmt[] }[] }
    | { k: 'delete'; sel: Select }
    | { k: 'deleteAlias'; alias: string }
    /** `names`: the attribute list, when the statement gives one (`PRIMARY_ID`, `FROM`, `TO` or attribute names). */
    | { k: 'insert'; type: string; names?: string[]; values: Expr[] }
    | { k: 'file'; name: string; path: Expr }
  );

export interface Param {
  name: string;
  type: TypeRef;
  default?: Expr;
}

export interface QueryDef {
  name: string;
  graph?: string;
  params: Param[];
  body: Stmt[];
  distributed: boolean;
  orReplace: boolean;
  returns?: TypeRef;
  /** The `CREATE … }` text as written, kept to show and to reinstall after a restart. */
  source: string;
}

/** The query statements of GSQL, as the GSQL parser hands them over. */
export type QueryStatement =
  | { kind: 'createQuery'; def: QueryDef }
  | { kind: 'interpretQuery'; def: QueryDef }
  | { kind: 'installQuery'; names: string[]; all: boolean; force: boolean }
  | { kind: 'runQuery'; name: string; args: Expr[]; named?: Record<string, Expr> }
  | { kind: 'dropQuery'; names: string[]; all: boolean }
  | { kind: 'showQuery'; name: string };
