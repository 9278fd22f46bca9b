import { GsqlSyntaxError, lex, type Token } from './gsql-lexer.js';
import { statementTokens } from './gsql-split.js';
import {
  parseCreateLoadingJob,
  type TokenCursor,
  parseDropJob,
  parseRunLoadingJob,
  parseShowJob,
} from './loading/job-parser.js';
import type { AttributeDecl, At, EdgeDecl, Statement, StatementBody, VertexDecl } from './gsql-ast.js';

export { GsqlSyntaxError };
export type { Statement };

/** Names of statement kinds that exist in GSQL but that this data plane does not run. */
const unsupportedCreate: Record<string, string> = {
  QUERY: 'CREATE QUERY',
  OR: 'CREATE OR REPLACE QUERY',
  DISTRIBUTED: 'CREATE DISTRIBUTED QUERY',
  SCHEMA_CHANGE: 'CREATE SCHEMA_CHANGE JOB',
  GLOBAL: 'CREATE GLOBAL SCHEMA_CHANGE JOB',
  DATA_SOURCE: 'CREATE DATA_SOURCE',
  USER: 'CREATE USER',
  ROLE: 'CREATE ROLE',
  SECRET: 'CREATE SECRET',
  TEMPLATE: 'CREATE TEMPLATE QUERY',
  PACKAGE: 'CREATE PACKAGE',
  FUNCTION: 'CREATE FUNCTION',
  INDEX: 'CREATE INDEX',
};

/**
 * Reads statements from the splitter's token stream, holding only the token it looks at and
 * the one after: a statement's tokens are never all kept, however many it has.
 */
class Parser implements TokenCursor {
  /** The next tokens, read ahead for `peek`; the `end` token stays once reached. */
  private readonly ahead: Token[] = [];

  constructor(private readonly tokens: Iterator<Token, void>) {}

  parseAll(): Statement[] {
    const statements: Statement[] = [];
    for (;;) {
      while (this.peek().kind === 'break') this.advance();
      if (this.peek().kind === 'end') return statements;
      statements.push(this.statement());
      if (!this.atStatementEnd()) this.fail();
    }
  }

  private statement(): Statement {
    const start = this.peek();
    const at = { line: start.line, column: start.column };
    const word = this.keyword();
    switch (word) {
      case 'CREATE':
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
      case 'SHOW': {
        const what = this.keyword();
        if (what === 'JOB') return { ...at, ...parseShowJob(this) };
        if (what !== 'GRAPH' && what !== 'VERTEX' && what !== 'EDGE') return this.unsupported(at, `SHOW ${what}`);
        const name = this.isPunct('*') ? (this.advance(), '*') : this.name();
        return { ...at, kind: 'show', what, name };
      }
      case 'INSTALL':
      case 'RUN':
      case 'INTERPRET':
        if (word === 'RUN' && this.peekKeyword('LOADING')) return { ...at, ...parseRunLoadingJob(this) };
        return this.unsupported(
          at,
          `${word} ${this.peek().kind === 'word' ? this.peek().text.toUpperCase() : ''}`.trim(),
        );
      case 'ALTER':
      case 'GRANT':
      case 'REVOKE':
      case 'BEGIN':
      case 'TYPEDEF':
      case 'SET':
      case 'IMPORT':
      case 'EXPORT':
      case 'ABORT':
      case 'RESUME':
        return this.unsupported(at, word);
      default:
        return this.fail(start);
    }
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
        this.expectPunct(')');
        if (keys.length > 1)
          throw new GsqlSyntaxError(
            `Composite PRIMARY KEY (${keys.join(', ')}) is not supported by this data plane; use one key attribute`,
            this.peek().line,
            this.peek().column,
          );
        if (decl.primaryKey !== undefined) this.fail();
        decl.primaryKey = keys[0];
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

  private vertexRef(): string {
    if (this.isPunct('*'))
      throw new GsqlSyntaxError(
        'FROM * / TO * (any vertex type) is not supported by this data plane; list the vertex type pairs',
        this.peek().line,
        this.peek().column,
      );
    return this.name();
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
        this.acceptKeyword('CASCADE');
        return { kind: 'dropGraph', name };
      }
      case 'ALL':
        return { kind: 'dropAll' };
      case 'JOB':
        return parseDropJob(this);
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
    return { name: this.name(), type: this.typeName() };
  }

  private defaultClause(attr: AttributeDecl): void {
    if (!this.acceptKeyword('DEFAULT')) return;
    const t = this.peek();
    const negative = this.acceptPunct('-');
    const v = this.peek();
    if (v.kind === 'number') {
      this.advance();
      attr.default = { kind: 'number', value: Number(v.text) * (negative ? -1 : 1) };
    } else if (!negative && v.kind === 'string') {
      this.advance();
      attr.default = { kind: 'string', value: v.text };
    } else if (!negative && v.kind === 'word' && /^(true|false)$/i.test(v.text)) {
      this.advance();
      attr.default = { kind: 'bool', value: v.text.toLowerCase() === 'true' };
    } else {
      this.fail(t);
    }
  }

  /** A type name; collection and tuple types are refused here, since nothing after them can be read. */
  private typeName(): string {
    const t = this.peek();
    const type = this.keyword();
    if (this.isPunct('<') || ['LIST', 'SET', 'MAP', 'FIXED_BINARY'].includes(type))
      throw new GsqlSyntaxError(
        `Attribute type ${type} is not supported by this data plane; ` +
          `use INT, UINT, FLOAT, DOUBLE, STRING, BOOL or DATETIME`,
        t.line,
        t.column,
      );
    if (type === 'STRING' && this.peekKeyword('COMPRESS')) this.advance();
    return type;
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
    const kind = this.peek().kind;
    return kind === 'break' || kind === 'end';
  }

  private unsupported(at: At, what: string): Statement {
    this.skipStatement();
    return { ...at, kind: 'unsupported', what };
  }

  // Token helpers.

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
  return new Parser(statementTokens(lex(text))).parseAll();
}
