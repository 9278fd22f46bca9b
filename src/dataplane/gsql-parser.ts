import { GsqlSyntaxError, lex, type Token } from './gsql-lexer.js';
import { statementTokens } from './gsql-split.js';
import { parseCreateLoadingJob, type TokenCursor, parseRunLoadingJob } from './loading/job-parser.js';
import type {
  AttributeDecl,
  At,
  EdgeDecl,
  JobAction,
  Literal,
  SchemaJobDecl,
  Statement,
  StatementBody,
  VertexDecl,
} from './gsql-ast.js';
import { parseQueryStatement } from './query/parser.js';

export { GsqlSyntaxError };
export type { Statement };

/** Names of statement kinds that exist in GSQL but that this data plane does not run. */
const unsupportedCreate: Record<string, string> = {
  QUERY: 'CREATE QUERY',
  OR: 'CREATE OR REPLACE QUERY',
  DISTRIBUTED: 'CREATE DISTRIBUTED QUERY',
  DATA_SOURCE: 'CREATE DATA_SOURCE',
  USER: 'CREATE USER',
  ROLE: 'CREATE ROLE',
  SECRET: 'CREATE SECRET',
  TEMPLATE: 'CREATE TEMPLATE QUERY',
  PACKAGE: 'CREATE PACKAGE',
  FUNCTION: 'CREATE FUNCTION',
  INDEX: 'CREATE INDEX',
};

/** Type names GSQL defines; any other name in a type's place is a user-defined tuple. */
const builtinTypes: ReadonlySet<string> = new Set([
  'INT',
  'UINT',
  'FLOAT',
  'DOUBLE',
  'STRING',
  'BOOL',
  'DATETIME',
  'FIXED_BINARY',
  'LIST',
  'SET',
  'MAP',
]);

/**
 * Reads statements from the splitter's token stream, holding only the token it looks at and
 * the one after: a statement's tokens are never all kept, however many it has.
 */
class Parser implements TokenCursor {
  /** The next tokens, read ahead for `peek`; the `end` token stays once reached. */
  private readonly ahead: Token[] = [];
  /** Where the CREATE of the statement being read starts in the text. */
  private createStart = 0;
  /** Inside `BEGIN … END`, whose `END` ends the statement as a break would. */
  private inBlock = false;

  constructor(
    private readonly tokens: Iterator<Token, void>,
    /** The request text, which query statements and jobs keep as written. */
    private readonly text: string,
  ) {}

  parseAll(): Statement[] {
    const statements: Statement[] = [];
    for (;;) {
      while (this.peek().kind === 'break') this.advance();
      if (this.peek().kind === 'end') return statements;
      const st = this.statement();
      statements.push(st);
      // `USE GRAPH g SHOW QUERY q`: GSQL lets a USE be followed by a statement on its line.
      const use = st.kind === 'useGraph' || st.kind === 'useGlobal';
      if (!this.atStatementEnd() && !use) this.fail();
    }
  }

  private statement(): Statement {
    const start = this.peek();
    const at = { line: start.line, column: start.column };
    if (this.isQueryStatement()) return { ...at, kind: 'query', query: this.queryStatement() };
    const word = this.keyword();
    switch (word) {
      case 'CREATE':
        this.createStart = start.start;
        return { ...at, ...this.create() };
      case 'USE':
        if (this.acceptKeyword('GLOBAL')) return { ...at, kind: 'useGlobal' };
        this.expectKeyword('GRAPH');
        return { ...at, kind: 'useGraph', name: this.name() };
      case 'DROP':
        return { ...at, ...this.drop() };
      case 'CLEAR':
        this.expectKeyword('GRAPH');
        this.expectKeyword('STORE');
        if (this.isPunct('-')) {
          this.advance();
          this.expectKeyword('HARD');
        }
        return { ...at, kind: 'clearGraphStore' };
      case 'LS':
        return { ...at, kind: 'ls' };
      case 'HELP':
        return { ...at, kind: 'help' };
      case 'SHOW': {
        const what = this.keyword();
        if (what === 'JOB')
          return { ...at, kind: 'showJob', name: this.isPunct('*') ? (this.advance(), '*') : this.name() };
        if (what !== 'GRAPH' && what !== 'VERTEX' && what !== 'EDGE') return this.unsupported(at, `SHOW ${what}`);
        const name = this.isPunct('*') ? (this.advance(), '*') : this.name();
        return { ...at, kind: 'show', what, name };
      }
      case 'RUN':
        if (this.peekKeyword('SCHEMA_CHANGE') || (this.peekKeyword('GLOBAL') && this.peekKeyword('SCHEMA_CHANGE', 1))) {
          const global = this.acceptKeyword('GLOBAL');
          this.advance();
          this.expectKeyword('JOB');
          return { ...at, kind: 'runSchemaJob', name: this.name(), global };
        }
        if (this.peekKeyword('LOADING')) return { ...at, ...parseRunLoadingJob(this) };
        return this.unsupported(at, `RUN ${this.peek().kind === 'word' ? this.peek().text.toUpperCase() : ''}`.trim());
      case 'INSTALL':
      case 'INTERPRET':
        return this.unsupported(
          at,
          `${word} ${this.peek().kind === 'word' ? this.peek().text.toUpperCase() : ''}`.trim(),
        );
      case 'BEGIN':
        return this.block();
      case 'SET': {
        const name = this.name().toLowerCase();
        this.expectPunct('=');
        const v = this.peek();
        if (v.kind !== 'word' && v.kind !== 'string' && v.kind !== 'number') this.fail();
        this.advance();
        return { ...at, kind: 'set', name, value: v.text };
      }
      case 'TYPEDEF':
        return { ...at, ...this.typedef() };
      case 'UPSERT':
        return { ...at, ...this.upsert() };
      case 'ALTER':
      case 'GRANT':
      case 'REVOKE':
      case 'IMPORT':
      case 'EXPORT':
      case 'ABORT':
      case 'RESUME':
        return this.unsupported(at, word);
      default:
        return this.fail(start);
    }
  }

  /** `BEGIN … END`: the splitter kept the lines between as one statement, which is read as such. */
  private block(): Statement {
    if (this.peekKeyword('END')) return this.fail();
    this.inBlock = true;
    try {
      const inner = this.statement();
      this.acceptPunct(';');
      this.expectKeyword('END');
      return inner;
    } finally {
      this.inBlock = false;
    }
  }

  /** `TYPEDEF TUPLE <f1 INT, f2 STRING(10), …> name`. */
  private typedef(): StatementBody {
    this.expectKeyword('TUPLE');
    this.expectPunct('<');
    const fields: AttributeDecl[] = [];
    do fields.push(this.attribute());
    while (this.acceptPunct(','));
    this.expectPunct('>');
    return { kind: 'typedefTuple', name: this.name(), fields };
  }

  /** `UPSERT v VALUES (id, a, …)` and `UPSERT a -(e)-> b VALUES (from, to, a, …)`. */
  private upsert(): StatementBody {
    const first = this.name();
    if (this.acceptPunct('-')) {
      this.expectPunct('(');
      const edge = this.name();
      this.expectPunct(')');
      this.expectPunct('->');
      const to = this.name();
      return { kind: 'upsertEdge', from: first, edge, to, values: this.values() };
    }
    return { kind: 'upsertVertex', type: first, values: this.values() };
  }

  private values(): Literal[] {
    this.expectKeyword('VALUES');
    this.expectPunct('(');
    const values: Literal[] = [];
    do values.push(this.literal());
    while (this.acceptPunct(','));
    this.expectPunct(')');
    return values;
  }

  /** CREATE [OR REPLACE] [DISTRIBUTED] QUERY, INSTALL/RUN/INTERPRET/DROP/SHOW QUERY: the query parser's. */
  private isQueryStatement(): boolean {
    if (this.peekKeyword('CREATE'))
      return this.peekKeyword('QUERY', 1) || this.peekKeyword('OR', 1) || this.peekKeyword('DISTRIBUTED', 1);
    return (
      ['INSTALL', 'RUN', 'INTERPRET', 'DROP', 'SHOW'].some((w) => this.peekKeyword(w)) && this.peekKeyword('QUERY', 1)
    );
  }

  private queryStatement() {
    const tokens: Token[] = [];
    while (!this.atStatementEnd()) {
      tokens.push(this.peek());
      this.advance();
    }
    // The statement's end as the query parser knows it, also where a BEGIN … END block's END stands.
    tokens.push({ ...this.peek(), kind: 'end', text: '' });
    return parseQueryStatement(tokens, this.text);
  }

  private create(): StatementBody {
    const at = this.peek();
    const what = this.keyword();
    switch (what) {
      case 'VERTEX':
        return { kind: 'createVertex', decl: this.vertex() };
      case 'DIRECTED':
      case 'UNDIRECTED':
        this.expectKeyword('EDGE');
        return { kind: 'createEdge', decl: this.edge(what === 'DIRECTED') };
      case 'EDGE':
        return { kind: 'createEdge', decl: this.edge(false) };
      case 'GRAPH':
        return this.graph();
      case 'SCHEMA_CHANGE':
        return this.schemaJob(false);
      case 'GLOBAL':
        if (this.peekKeyword('SCHEMA_CHANGE')) {
          this.advance();
          return this.schemaJob(true);
        }
        return this.fail();
      case 'LOADING':
        return parseCreateLoadingJob(this);
      default: {
        const label = unsupportedCreate[what];
        if (!label) return this.fail(at);
        this.skipStatement();
        return { kind: 'unsupported', what: label };
      }
    }
  }

  /** `CREATE [GLOBAL] SCHEMA_CHANGE JOB j [FOR GRAPH g] { action; … }`, after SCHEMA_CHANGE. */
  private schemaJob(global: boolean): StatementBody {
    this.expectKeyword('JOB');
    const job: SchemaJobDecl = { name: this.name(), global, actions: [], text: '' };
    if (this.acceptKeyword('FOR')) {
      this.expectKeyword('GRAPH');
      job.graph = this.name();
    }
    this.expectPunct('{');
    while (!this.isPunct('}')) {
      if (!this.acceptPunct(';')) job.actions.push(this.jobAction());
    }
    const close = this.peek();
    this.advance();
    job.text = this.text.slice(this.createStart, close.end);
    return { kind: 'createSchemaJob', job };
  }

  private jobAction(): JobAction {
    const at = this.peek();
    const verb = this.keyword();
    if (verb === 'ADD') {
      const what = this.keyword();
      if (what === 'VERTEX') return { kind: 'addVertex', decl: this.vertex() };
      if (what === 'DIRECTED' || what === 'UNDIRECTED') {
        this.expectKeyword('EDGE');
        return { kind: 'addEdge', decl: this.edge(what === 'DIRECTED') };
      }
      if (what === 'EDGE') return { kind: 'addEdge', decl: this.edge(false) };
      return this.fail(at);
    }
    if (verb === 'DROP') {
      const what = this.keyword();
      if (what !== 'VERTEX' && what !== 'EDGE') return this.fail(at);
      const names = [this.name()];
      while (this.acceptPunct(',')) names.push(this.name());
      return { kind: what === 'VERTEX' ? 'dropVertex' : 'dropEdge', names };
    }
    if (verb === 'ALTER') {
      const what = this.keyword();
      if (what !== 'VERTEX' && what !== 'EDGE') return this.fail(at);
      const type = this.name();
      const change = this.keyword();
      this.expectKeyword('ATTRIBUTE');
      this.expectPunct('(');
      if (change === 'ADD') {
        const attributes: AttributeDecl[] = [];
        do {
          const attr = this.attribute();
          this.defaultClause(attr);
          attributes.push(attr);
        } while (this.acceptPunct(','));
        this.expectPunct(')');
        return { kind: 'alterAdd', what, type, attributes };
      }
      if (change !== 'DROP') return this.fail(at);
      const names = [this.name()];
      while (this.acceptPunct(',')) names.push(this.name());
      this.expectPunct(')');
      return { kind: 'alterDrop', what, type, names };
    }
    return this.fail(at);
  }

  private vertex(): VertexDecl {
    const decl: VertexDecl = { name: this.name(), attributes: [], options: {} };
    this.expectPunct('(');
    let first = true;
    do {
      if (first && this.acceptKeyword('PRIMARY_ID')) {
        decl.primaryId = { name: this.name(), type: this.typeName() };
      } else if (this.peekKeyword('PRIMARY') && this.peekKeyword('KEY', 1)) {
        this.advance(2);
        this.expectPunct('(');
        const keys = [this.name()];
        while (this.acceptPunct(',')) keys.push(this.name());
        if (decl.primaryKey !== undefined || decl.compositeKey) this.fail();
        this.expectPunct(')');
        if (keys.length > 1) decl.compositeKey = keys;
        else decl.primaryKey = keys[0];
      } else {
        const attr = this.attribute();
        if (this.peekKeyword('PRIMARY') && this.peekKeyword('KEY', 1)) {
          this.advance(2);
          attr.primaryKey = true;
          if (decl.primaryKey !== undefined) this.fail();
          decl.primaryKey = attr.name;
        }
        this.defaultClause(attr);
        decl.attributes.push(attr);
      }
      first = false;
    } while (this.acceptPunct(','));
    this.expectPunct(')');
    decl.options = this.withOptions();
    return decl;
  }

  private edge(directed: boolean): EdgeDecl {
    const decl: EdgeDecl = { name: this.name(), directed, pairs: [], attributes: [], options: {} };
    this.expectPunct('(');
    do {
      this.expectKeyword('FROM');
      const from = this.vertexRef();
      this.expectPunct(',');
      this.expectKeyword('TO');
      decl.pairs.push({ from, to: this.vertexRef() });
    } while (this.acceptPunct('|'));
    while (this.acceptPunct(',')) {
      if (this.peekKeyword('DISCRIMINATOR'))
        throw new GsqlSyntaxError(
          'DISCRIMINATOR (multi-edges) is not supported by this data plane',
          this.peek().line,
          this.peek().column,
        );
      const attr = this.attribute();
      this.defaultClause(attr);
      decl.attributes.push(attr);
    }
    this.expectPunct(')');
    decl.options = this.withOptions();
    return decl;
  }

  /** A vertex type name, or `*` for any vertex type. */
  private vertexRef(): string {
    return this.acceptPunct('*') ? '*' : this.name();
  }

  private graph(): StatementBody {
    const name = this.name();
    this.expectPunct('(');
    if (this.acceptPunct('*')) {
      this.expectPunct(')');
      return { kind: 'createGraph', name, all: true, types: [] };
    }
    const types: string[] = [];
    if (!this.isPunct(')')) {
      do types.push(this.name());
      while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    return { kind: 'createGraph', name, all: false, types };
  }

  private drop(): StatementBody {
    const at = this.peek();
    const what = this.keyword();
    switch (what) {
      case 'VERTEX':
      case 'EDGE': {
        const names = [this.name()];
        while (this.acceptPunct(',')) names.push(this.name());
        return { kind: what === 'VERTEX' ? 'dropVertex' : 'dropEdge', names };
      }
      case 'GRAPH': {
        const name = this.name();
        return { kind: 'dropGraph', name, cascade: this.acceptKeyword('CASCADE') };
      }
      case 'ALL':
        return { kind: 'dropAll' };
      case 'JOB': {
        // `DROP JOB ALL` drops the graph's jobs; a job called ALL is named as any other.
        if (this.peekKeyword('ALL') && ['break', 'end'].includes(this.peek(1).kind)) {
          this.advance();
          return { kind: 'dropJob', names: [], all: true };
        }
        const names = [this.name()];
        while (this.acceptPunct(',')) names.push(this.name());
        return { kind: 'dropJob', names, all: false };
      }
      case 'QUERY':
      case 'DATA_SOURCE':
      case 'USER':
      case 'ROLE':
      case 'SECRET':
      case 'INDEX':
      case 'PACKAGE':
        this.skipStatement();
        return { kind: 'unsupported', what: `DROP ${what}` };
      default:
        return this.fail(at);
    }
  }

  private attribute(): AttributeDecl {
    return { name: this.name(), ...this.typeSpec() };
  }

  private defaultClause(attr: AttributeDecl): void {
    if (this.acceptKeyword('DEFAULT')) attr.default = this.literal();
  }

  /** A number (maybe negative), a string or true/false. */
  private literal(): Literal {
    const t = this.peek();
    const negative = this.acceptPunct('-');
    const v = this.peek();
    if (v.kind === 'number') {
      this.advance();
      return { kind: 'number', value: Number(v.text) * (negative ? -1 : 1) };
    }
    if (!negative && v.kind === 'string') {
      this.advance();
      return { kind: 'string', value: v.text };
    }
    if (!negative && v.kind === 'word' && /^(true|false)$/i.test(v.text)) {
      this.advance();
      return { kind: 'bool', value: v.text.toLowerCase() === 'true' };
    }
    return this.fail(t);
  }

  /** A primary id's type: a built-in name. */
  private typeName(): string {
    const type = this.keyword();
    if (type === 'STRING' && this.peekKeyword('COMPRESS')) this.advance();
    return type;
  }

  /** A built-in type name upper-cased; any other word is a tuple's name, kept as written. */
  private elementType(): string {
    const word = this.name();
    const upper = word.toUpperCase();
    if (builtinTypes.has(upper)) {
      if (upper === 'STRING' && this.peekKeyword('COMPRESS')) this.advance();
      return upper;
    }
    return word;
  }

  /** An attribute's type: `INT`, `STRING(30)`, `FIXED_BINARY(8)`, `LIST<T>`, `SET<T>`, `MAP<K, V>`, a tuple. */
  private typeSpec(): Omit<AttributeDecl, 'name'> {
    const type = this.elementType();
    if (type === 'LIST' || type === 'SET' || type === 'MAP') {
      this.expectPunct('<');
      const keyType = type === 'MAP' ? this.elementType() : undefined;
      if (keyType !== undefined) this.expectPunct(',');
      const valueType = this.elementType();
      this.expectPunct('>');
      return keyType === undefined ? { type, valueType } : { type, keyType, valueType };
    }
    if (builtinTypes.has(type) && this.acceptPunct('(')) {
      const n = this.peek();
      if (n.kind !== 'number' || !/^\d+$/.test(n.text)) this.fail();
      this.advance();
      this.expectPunct(')');
      return { type, size: Number(n.text) };
    }
    return { type };
  }

  private withOptions(): Record<string, string> {
    const options: Record<string, string> = {};
    if (!this.acceptKeyword('WITH')) return options;
    do {
      const key = this.keyword();
      this.expectPunct('=');
      const v = this.peek();
      if (v.kind !== 'string' && v.kind !== 'word') this.fail();
      this.advance();
      options[key] = v.text;
    } while (this.acceptPunct(','));
    return options;
  }

  /** Moves to the end of the statement: the splitter has already decided where that is. */
  private skipStatement(): void {
    while (!this.atStatementEnd()) this.advance();
  }

  private atStatementEnd(): boolean {
    const t = this.peek();
    if (this.inBlock && t.kind === 'word' && t.text.toUpperCase() === 'END') {
      const after = this.peek(1).kind;
      if (after === 'break' || after === 'end') return true;
    }
    return t.kind === 'break' || t.kind === 'end';
  }

  private unsupported(at: At, what: string): Statement {
    this.skipStatement();
    return { ...at, kind: 'unsupported', what };
  }

  // Token helpers.

  /** The token the parser is at, without reading further (the stream may have failed). */
  current(): Token | undefined {
    return this.ahead[0];
  }

  peek(offset = 0): Token {
    while (this.ahead.length <= offset) {
      const last = this.ahead.at(-1);
      if (last?.kind === 'end') return last;
      const next = this.tokens.next();
      // The splitter's stream always ends with an `end` token.
      if (next.done) throw new Error('the token stream ended without its end token');
      this.ahead.push(next.value);
    }
    return this.ahead[offset]!;
  }

  /** Moves past `count` tokens; never past `end`. */
  advance(count = 1): void {
    for (let k = 0; k < count; k++) if (this.peek().kind !== 'end') this.ahead.shift();
  }

  private isPunct(p: string): boolean {
    const t = this.peek();
    return t.kind === 'punct' && t.text === p;
  }

  private acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.advance();
    return true;
  }

  private expectPunct(p: string): void {
    if (!this.acceptPunct(p)) this.fail();
  }

  private peekKeyword(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'word' && t.text.toUpperCase() === word;
  }

  private acceptKeyword(word: string): boolean {
    if (!this.peekKeyword(word)) return false;
    this.advance();
    return true;
  }

  private expectKeyword(word: string): void {
    if (!this.acceptKeyword(word)) this.fail();
  }

  private keyword(): string {
    const t = this.peek();
    if (t.kind !== 'word') this.fail();
    this.advance();
    return t.text.toUpperCase();
  }

  private name(): string {
    const t = this.peek();
    if (t.kind !== 'word') this.fail();
    this.advance();
    return t.text;
  }

  /** GSQL's own wording for a token it did not expect. */
  fail(t: Token = this.peek()): never {
    const shown =
      t.kind === 'end' ? '<EOF>' : t.kind === 'break' || (t.text === ';' && t.kind === 'punct') ? '<EOL>' : t.text;
    throw new GsqlSyntaxError(`Encountered "${shown}" at line ${t.line}, column ${t.column}.`, t.line, t.column);
  }
}

/** Parses a whole GSQL request; a syntax error anywhere means no statement of it runs. */
export function parseGsql(text: string): Statement[] {
  const parser = new Parser(statementTokens(lex(text)), text);
  try {
    return parser.parseAll();
  } catch (err) {
    // The parsers descend one call per level of nesting: thousands of nested parentheses end
    // the stack, which is a syntax error of the request, not a failure of the process.
    if (!(err instanceof RangeError) || !/call stack/.test(err.message)) throw err;
    // Where reading stopped, when known: the end of a query block, which its own parser reads whole.
    const at = parser.current();
    throw new GsqlSyntaxError('The statement nests too deeply to be read.', at?.line ?? 1, at?.column ?? 1);
  }
}
