import { GsqlSyntaxError, type Token } from '../gsql-lexer.js';
import type { AccType, Expr, Hop, Param, PrintItem, QueryDef, QueryStatement, Select, Stmt, TypeRef } from './ast.js';

const accNames = new Set([
  'SUMACCUM',
  'MINACCUM',
  'MAXACCUM',
  'AVGACCUM',
  'ORACCUM',
  'ANDACCUM',
  'BITWISEORACCUM',
  'BITWISEANDACCUM',
  'LISTACCUM',
  'SETACCUM',
  'BAGACCUM',
  'MAPACCUM',
  'HEAPACCUM',
  'GROUPBYACCUM',
  'ARRAYACCUM',
]);
const canonicalAcc: Record<string, string> = Object.fromEntries(
  [
    'SumAccum',
    'MinAccum',
    'MaxAccum',
    'AvgAccum',
    'OrAccum',
    'AndAccum',
    'BitwiseOrAccum',
    'BitwiseAndAccum',
    'ListAccum',
    'SetAccum',
    'BagAccum',
    'MapAccum',
    'HeapAccum',
    'GroupByAccum',
    'ArrayAccum',
  ].map((n) => [n.toUpperCase(), n]),
);
const baseTypes = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'BOOL', 'DATETIME', 'VERTEX', 'EDGE', 'INT64']);
const collTypes = new Set(['SET', 'LIST', 'BAG']);
/** Words that end an ACCUM / POST-ACCUM clause. */
const clauseEnds = new Set(['POST', 'POST_ACCUM', 'HAVING', 'ORDER', 'LIMIT', 'ACCUM']);

/**
 * Reads one query statement's tokens (the splitter's, without line breaks) into its AST. One
 * method per production; every error names the line and column of the token it stopped at.
 */
export class QueryParser {
  private i = 0;
  /** Tuple type names declared so far: `T x;` then reads as a declaration, not an expression. */
  private readonly tuples = new Set<string>();
  /** The token index of each `ELSE IF` read as the next branch of its IF (see parseQueryStatement). */
  readonly elseIfs: number[] = [];
  /** The token index where the parse failed. */
  failedAt = -1;

  /** `nestedElse`: the `ELSE IF`s (token index of ELSE) to read as ELSE with an IF statement inside. */
  constructor(
    private readonly tokens: Token[],
    private readonly text: string,
    private readonly nestedElse: ReadonlySet<number> = new Set(),
  ) {}

  /** statement := CREATE … QUERY | INTERPRET QUERY | INSTALL QUERY | RUN QUERY | DROP QUERY | SHOW QUERY */
  statement(): QueryStatement {
    const first = this.word();
    if (first === 'CREATE') {
      const orReplace = this.acceptWord('OR');
      if (orReplace) this.expectWord('REPLACE');
      const distributed = this.acceptWord('DISTRIBUTED');
      this.expectWord('QUERY');
      const def = this.queryDef(this.tokens[0]!, this.name(), distributed, orReplace);
      return { kind: 'createQuery', def };
    }
    if (first === 'INTERPRET') {
      this.expectWord('QUERY');
      return { kind: 'interpretQuery', def: this.queryDef(this.tokens[0]!, '', false, false) };
    }
    if (first === 'INSTALL') {
      this.expectWord('QUERY');
      let force = false;
      while (this.isPunct('-')) {
        this.i++;
        const opt = this.word();
        if (opt === 'FORCE') force = true;
      }
      if (this.acceptWord('ALL') || this.acceptPunct('*')) return { kind: 'installQuery', names: [], all: true, force };
      const names = [this.name()];
      while (this.acceptPunct(',')) names.push(this.name());
      return { kind: 'installQuery', names, all: false, force };
    }
    if (first === 'RUN') {
      this.expectWord('QUERY');
      while (this.isPunct('-')) {
        this.i++;
        this.word();
      }
      const name = this.name();
      this.expectPunct('(');
      const args: Expr[] = [];
      if (!this.isPunct(')')) {
        do args.push(this.expr());
        while (this.acceptPunct(','));
      }
      this.expectPunct(')');
      return { kind: 'runQuery', name, args };
    }
    if (first === 'DROP') {
      this.expectWord('QUERY');
      if (this.acceptWord('ALL') || this.acceptPunct('*')) return { kind: 'dropQuery', names: [], all: true };
      const names = [this.name()];
      while (this.acceptPunct(',')) names.push(this.name());
      return { kind: 'dropQuery', names, all: false };
    }
    if (first === 'SHOW') {
      this.expectWord('QUERY');
      return { kind: 'showQuery', name: this.isPunct('*') ? (this.i++, '*') : this.name() };
    }
    return this.fail(this.tokens[0]);
  }

  /** Everything must have been read. */
  done(): void {
    if (this.peek().kind !== 'end' && this.peek().kind !== 'break') this.fail();
  }

  /** queryDef := name? "(" params ")" [FOR GRAPH g] [RETURNS (type)] [SYNTAX v] "{" body "}" */
  private queryDef(start: Token, name: string, distributed: boolean, orReplace: boolean): QueryDef {
    this.expectPunct('(');
    const params: Param[] = [];
    if (!this.isPunct(')')) {
      do {
        const type = this.type();
        const pname = this.name();
        const p: Param = { name: pname, type };
        if (this.acceptPunct('=')) p.default = this.expr();
        params.push(p);
      } while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    let graph: string | undefined;
    let returns: TypeRef | undefined;
    for (;;) {
      if (this.acceptWord('FOR')) {
        this.expectWord('GRAPH');
        graph = this.name();
      } else if (this.acceptWord('RETURNS')) {
        this.expectPunct('(');
        returns = this.type();
        this.expectPunct(')');
      } else if (this.acceptWord('SYNTAX')) {
        this.i++;
      } else if (this.peekWord('API')) {
        this.i++;
        this.expectPunct('(');
        this.i++;
        this.expectPunct(')');
      } else break;
    }
    const body = this.block();
    const last = this.tokens[this.i - 1]!;
    return {
      name,
      graph,
      params,
      body,
      distributed,
      orReplace,
      returns,
      source: this.text.slice(start.start, last.end),
    };
  }

  private block(): Stmt[] {
    this.expectPunct('{');
    const body: Stmt[] = [];
    while (!this.acceptPunct('}')) {
      if (this.acceptPunct(';')) continue;
      body.push(this.stmt(false));
    }
    return body;
  }

  /** Statements up to one of the `ends` words (IF … THEN body ELSE …, WHILE … DO body END). */
  private stmtsUntil(ends: string[]): Stmt[] {
    const body: Stmt[] = [];
    while (!ends.some((w) => this.peekWord(w))) {
      if (this.peek().kind === 'end' || this.isPunct('}')) this.fail();
      if (this.acceptPunct(';')) continue;
      body.push(this.stmt(false));
    }
    return body;
  }

  /** One query-body statement; `inClause` reads the comma-separated form of ACCUM and POST-ACCUM. */
  private stmt(inClause: boolean): Stmt {
    const t = this.peek();
    const at = { line: t.line, column: t.column };
    const end = () => {
      if (!inClause) this.expectPunct(';');
    };
    if (t.kind === 'word') {
      const w = t.text.toUpperCase();
      switch (w) {
        case 'TYPEDEF': {
          this.i++;
          this.expectWord('TUPLE');
          this.expectPunct('<');
          const fields: { name: string; type: TypeRef }[] = [];
          do {
            const type = this.type();
            fields.push({ name: this.name(), type });
          } while (this.acceptPunct(','));
          this.expectPunct('>');
          const name = this.name();
          this.tuples.add(name.toUpperCase());
          end();
          return { ...at, k: 'typedef', name, fields };
        }
        case 'IF': {
          this.i++;
          const branches = [{ cond: this.expr(), body: [] as Stmt[] }];
          this.expectWord('THEN');
          branches[0]!.body = this.clauseBody(inClause, ['ELSE', 'END']);
          let elseBody: Stmt[] | undefined;
          while (this.peekWord('ELSE')) {
            const elseAt = this.i++;
            if (!this.nestedElse.has(elseAt) && this.peekWord('IF')) {
              this.i++;
              this.elseIfs.push(elseAt);
              const cond = this.expr();
              this.expectWord('THEN');
              branches.push({ cond, body: this.clauseBody(inClause, ['ELSE', 'END']) });
            } else {
              elseBody = this.clauseBody(inClause, ['END']);
              break;
            }
          }
          this.expectWord('END');
          end();
          return { ...at, k: 'if', branches, else: elseBody };
        }
        case 'WHILE': {
          this.i++;
          const cond = this.expr();
          const limit = this.acceptWord('LIMIT') ? this.expr() : undefined;
          this.expectWord('DO');
          const body = this.clauseBody(inClause, ['END']);
          this.expectWord('END');
          end();
          return { ...at, k: 'while', cond, limit, body };
        }
        case 'FOREACH': {
          this.i++;
          const vars: string[] = [];
          if (this.acceptPunct('(')) {
            do vars.push(this.name());
            while (this.acceptPunct(','));
            this.expectPunct(')');
          } else vars.push(this.name());
          this.expectWord('IN');
          let iter: Expr | { range: [Expr, Expr, Expr?] };
          if (this.peekWord('RANGE')) {
            this.i++;
            this.expectPunct('[');
            const a = this.expr();
            this.expectPunct(',');
            const b = this.expr();
            this.expectPunct(']');
            const step =
              this.isPunct('.') && this.peekWord('STEP', 1) ? ((this.i += 2), this.callArgs()[0]) : undefined;
            iter = { range: [a, b, step] };
          } else iter = this.expr();
          this.expectWord('DO');
          const body = this.clauseBody(inClause, ['END']);
          this.expectWord('END');
          end();
          return { ...at, k: 'foreach', vars, iter, body };
        }
        case 'CASE': {
          this.i++;
          const subject = this.peekWord('WHEN') ? undefined : this.expr();
          const whens: { cond: Expr; body: Stmt[] }[] = [];
          while (this.acceptWord('WHEN')) {
            const cond = this.expr();
            this.expectWord('THEN');
            whens.push({ cond, body: this.clauseBody(inClause, ['WHEN', 'ELSE', 'END']) });
          }
          const elseBody = this.acceptWord('ELSE') ? this.clauseBody(inClause, ['END']) : undefined;
          this.expectWord('END');
          end();
          return { ...at, k: 'case', subject, whens, else: elseBody };
        }
        case 'BREAK':
        case 'CONTINUE':
          this.i++;
          end();
          return { ...at, k: w === 'BREAK' ? 'break' : 'continue' };
        case 'PRINT': {
          this.i++;
          const items: PrintItem[] = [];
          do items.push(this.printItem());
          while (this.acceptPunct(','));
          let where: Expr | undefined;
          if (this.acceptWord('WHERE')) {
            const saved = this.comparing;
            this.comparing = true;
            where = this.expr();
            this.comparing = saved;
          }
          const toCsv = this.acceptWord('TO_CSV') ? this.expr() : undefined;
          end();
          return { ...at, k: 'print', items, where, toCsv };
        }
        case 'RETURN': {
          this.i++;
          const e = this.isPunct(';') ? undefined : this.expr();
          end();
          return { ...at, k: 'return', e };
        }
        case 'RAISE': {
          this.i++;
          const name = this.name();
          const args = this.isPunct('(') ? this.callArgs() : [];
          end();
          return { ...at, k: 'raise', name, args };
        }
        case 'EXCEPTION': {
          this.i++;
          const name = this.name();
          this.expectPunct('(');
          const code = this.expr();
          this.expectPunct(')');
          end();
          return { ...at, k: 'exception', name, code };
        }
        case 'TRY': {
          this.i++;
          const body = this.stmtsUntil(['EXCEPTION']);
          this.expectWord('EXCEPTION');
          const handlers: { name?: string; body: Stmt[] }[] = [];
          while (this.acceptWord('WHEN')) {
            const name = this.acceptWord('OTHERS') ? undefined : this.name();
            this.expectWord('THEN');
            handlers.push({ name, body: this.stmtsUntil(['WHEN', 'END']) });
          }
          this.expectWord('END');
          end();
          return { ...at, k: 'try', body, handlers };
        }
        case 'DELETE': {
          this.i++;
          if (this.acceptPunct('(')) {
            const alias = this.name();
            this.expectPunct(')');
            end();
            return { ...at, k: 'deleteAlias', alias };
          }
          const sel = this.selectBody(at, this.name());
          end();
          return { ...at, k: 'delete', sel };
        }
        case 'INSERT': {
          this.i++;
          this.expectWord('INTO');
          const type = this.name();
          let names: string[] | undefined;
          if (this.acceptPunct('(')) {
            // The attribute list: the values follow in its order.
            names = [this.name()];
            while (this.acceptPunct(',')) names.push(this.name());
            this.expectPunct(')');
          }
          this.expectWord('VALUES');
          const values = this.callArgs();
          end();
          return { ...at, k: 'insert', type, names, values };
        }
        case 'FILE': {
          this.i++;
          const name = this.name();
          this.expectPunct('(');
          const path = this.expr();
          this.expectPunct(')');
          end();
          return { ...at, k: 'file', name, path };
        }
        case 'LOG': {
          this.i++;
          this.callArgs();
          end();
          return { ...at, k: 'expr', e: { ...at, k: 'lit', v: true } };
        }
        default:
          break;
      }
      if (this.isTypeStart()) {
        const type = this.type();
        if (type.k === 'accum') {
          const vars: { name: string; global: boolean; dims?: number[]; init?: Expr }[] = [];
          do {
            const global = this.acceptPunct('@@') || (this.isPunct('@') && this.isPunctAt(1, '@') && !!(this.i += 2));
            if (!global) this.expectPunct('@');
            const name = this.name();
            const dims = type.acc.name === 'ArrayAccum' ? this.arrayDims() : undefined;
            vars.push({ name, global, dims, init: this.acceptPunct('=') ? this.expr() : undefined });
          } while (this.acceptPunct(','));
          end();
          return { ...at, k: 'accDecl', type: type.acc, vars };
        }
        const vars: { name: string; init?: Expr }[] = [];
        // In ACCUM, a comma ends the declaration: `INT a = 1, INT b = 2` declares one variable each.
        do vars.push({ name: this.name(), init: this.acceptPunct('=') ? this.expr() : undefined });
        while (!inClause && this.acceptPunct(','));
        end();
        return { ...at, k: 'varDecl', type, vars };
      }
    }
    // An assignment or an expression statement (a method call); a stray END closes nothing here.
    if (this.peekWord('END')) this.fail();
    const target = this.postfix();
    if (target.k === 'name' && this.isPunct('(')) {
      // `S (Person) = …`: a vertex set declared with its type.
      this.callArgs();
    }
    for (const op of ['=', '+=', '-='] as const) {
      if (this.acceptPunct(op)) {
        const value = this.expr();
        end();
        return { ...at, k: 'assign', target, op, value };
      }
    }
    end();
    return { ...at, k: 'expr', e: target };
  }

  /** An ArrayAccum variable's `[10][]`: one pair of brackets per dimension, each with its size or empty. */
  private arrayDims(): number[] {
    const dims: number[] = [];
    this.expectPunct('[');
    do {
      dims.push(this.wholeNumber() ?? 0);
      this.expectPunct(']');
    } while (this.acceptPunct('['));
    return dims;
  }

  /** A whole-number literal, taken; undefined (nothing taken) for any other token. */
  private wholeNumber(): number | undefined {
    const t = this.peek();
    if (t.kind !== 'number' || !/^\d+$/.test(t.text)) return undefined;
    this.i++;
    return Number(t.text);
  }

  /** The body of IF/WHILE/FOREACH/CASE: statements with `;`, or in a clause, comma-separated. */
  private clauseBody(inClause: boolean, ends: string[]): Stmt[] {
    if (!inClause) return this.stmtsUntil(ends);
    const body: Stmt[] = [];
    while (!ends.some((w) => this.peekWord(w))) {
      body.push(this.stmt(true));
      if (!this.acceptPunct(',') && !this.acceptPunct(';')) break;
    }
    return body;
  }

  private printItem(): PrintItem {
    const start = this.peek();
    const e = this.expr();
    let projection: { e: Expr; key: string }[] | undefined;
    if (this.acceptPunct('[')) {
      projection = [];
      do {
        const ps = this.peek();
        const pe = this.expr();
        const key = this.acceptWord('AS') ? this.name() : this.textFrom(ps);
        projection.push({ e: pe, key });
      } while (this.acceptPunct(','));
      this.expectPunct(']');
    }
    const key = this.acceptWord('AS') ? this.name() : this.textFrom(start).replace(/\[.*$/s, '');
    return { e, key, projection };
  }

  private textFrom(start: Token): string {
    return this.text.slice(start.start, this.tokens[this.i - 1]!.end);
  }

  private isTypeStart(): boolean {
    const t = this.peek();
    if (t.kind !== 'word') return false;
    const w = t.text.toUpperCase();
    const next = this.peek(1);
    if (accNames.has(w)) return true;
    if (baseTypes.has(w) || this.tuples.has(w)) return next.kind === 'word' || (next.text === '<' && w === 'VERTEX');
    if (collTypes.has(w) || w === 'MAP') return next.kind === 'punct' && next.text === '<';
    return false;
  }

  /** type := base | VERTEX<T> | SET/LIST/BAG<type> | MAP<type,type> | tupleName | accumType */
  private type(): TypeRef {
    const t = this.peek();
    const w = this.word();
    if (accNames.has(w)) return { k: 'accum', acc: this.accType(w) };
    if (w === 'VERTEX' || w === 'EDGE') {
      if (this.acceptPunct('<')) {
        const vt = this.name();
        this.expectPunct('>');
        return { k: 'base', name: w, vertexType: vt };
      }
      return { k: 'base', name: w };
    }
    if (baseTypes.has(w)) {
      if (w === 'STRING') this.acceptWord('COMPRESS');
      return { k: 'base', name: w === 'INT64' ? 'INT' : w };
    }
    if (collTypes.has(w)) {
      this.expectPunct('<');
      const elem = this.type();
      this.expectPunct('>');
      return { k: 'coll', name: w as 'SET' | 'LIST' | 'BAG', elem };
    }
    if (w === 'MAP') {
      this.expectPunct('<');
      const key = this.type();
      this.expectPunct(',');
      const value = this.type();
      this.expectPunct('>');
      return { k: 'map', key, value };
    }
    if (this.tuples.has(w)) return { k: 'tuple', name: t.text };
    if (w === 'JSONOBJECT' || w === 'JSONARRAY') return { k: 'base', name: w };
    return this.fail(t);
  }

  private accType(w: string): AccType {
    const name = canonicalAcc[w]!;
    switch (name) {
      case 'OrAccum':
      case 'AndAccum':
      case 'BitwiseOrAccum':
      case 'BitwiseAndAccum': {
        let elem: TypeRef | undefined;
        if (this.acceptPunct('<')) {
          elem = this.type();
          this.expectPunct('>');
        }
        return { name, elem };
      }
      case 'AvgAccum': {
        let elem: TypeRef = { k: 'base', name: 'DOUBLE' };
        if (this.acceptPunct('<')) {
          elem = this.type();
          this.expectPunct('>');
        }
        return { name, elem };
      }
      case 'MapAccum': {
        this.expectPunct('<');
        const key = this.type();
        this.expectPunct(',');
        const value = this.type();
        this.expectPunct('>');
        return { name, key, value };
      }
      case 'HeapAccum': {
        this.expectPunct('<');
        const tuple = this.name();
        this.expectPunct('>');
        this.expectPunct('(');
        const capacity = this.expr();
        const keys: { field: string; desc: boolean }[] = [];
        while (this.acceptPunct(',')) {
          const field = this.name();
          const desc = this.acceptWord('DESC');
          if (!desc) this.acceptWord('ASC');
          keys.push({ field, desc });
        }
        this.expectPunct(')');
        return { name, tuple, capacity, keys };
      }
      case 'GroupByAccum': {
        this.expectPunct('<');
        const keys: { type: TypeRef; name: string }[] = [];
        const accs: { type: AccType; name: string }[] = [];
        do {
          const type = this.type();
          const fname = this.name();
          if (type.k === 'accum') accs.push({ type: type.acc, name: fname });
          else if (accs.length > 0) this.fail(this.tokens[this.i - 1]);
          else keys.push({ type, name: fname });
        } while (this.acceptPunct(','));
        this.expectPunct('>');
        return { name, keys, accs };
      }
      case 'ArrayAccum': {
        // Its elements are accumulators: any but Heap, Map, GroupBy and another array.
        this.expectPunct('<');
        const at = this.peek();
        const elem = this.type();
        if (elem.k !== 'accum' || ['HeapAccum', 'MapAccum', 'GroupByAccum', 'ArrayAccum'].includes(elem.acc.name))
          return this.fail(at);
        this.expectPunct('>');
        return { name, elem: elem.acc, dims: [] };
      }
      default: {
        this.expectPunct('<');
        const elem = this.type();
        this.expectPunct('>');
        return { name: name as 'SumAccum', elem };
      }
    }
  }

  // Expressions, lowest precedence first.

  expr(): Expr {
    return this.setOps();
  }

  private setOps(): Expr {
    let l = this.or();
    for (;;) {
      const t = this.peek();
      const w = t.kind === 'word' ? t.text.toUpperCase() : '';
      if (w !== 'UNION' && w !== 'INTERSECT' && w !== 'MINUS') return l;
      this.i++;
      l = { line: t.line, column: t.column, k: 'setop', op: w, l, r: this.or() };
    }
  }

  private or(): Expr {
    let l = this.and();
    while (this.peekWord('OR') || this.isPunct('||')) {
      const t = this.next();
      l = { line: t.line, column: t.column, k: 'bin', op: 'OR', l, r: this.and() };
    }
    return l;
  }

  private and(): Expr {
    let l = this.not();
    while (this.peekWord('AND') || this.isPunct('&&')) {
      const t = this.next();
      l = { line: t.line, column: t.column, k: 'bin', op: 'AND', l, r: this.not() };
    }
    return l;
  }

  private not(): Expr {
    const t = this.peek();
    if (this.acceptWord('NOT') || this.acceptPunct('!')) return { ...pos(t), k: 'un', op: 'NOT', e: this.not() };
    return this.comparison();
  }

  private comparison(): Expr {
    const l = this.bitwise();
    const t = this.peek();
    if (t.kind === 'punct' && ['==', '!=', '<>', '<', '>', '<=', '>=', '='].includes(t.text)) {
      // `=` compares inside expressions (WHERE a = b), as GSQL allows.
      if (t.text === '=' && !this.comparing) return l;
      this.i++;
      const op = t.text === '<>' ? '!=' : t.text === '=' ? '==' : t.text;
      return { ...pos(t), k: 'bin', op, l, r: this.bitwise() };
    }
    if (this.peekWord('IN') || (this.peekWord('NOT') && this.peekWord('IN', 1))) {
      const not = this.acceptWord('NOT');
      this.i++;
      return { ...pos(t), k: 'in', e: l, list: this.bitwise(), not };
    }
    if (this.peekWord('IS')) {
      this.i++;
      const not = this.acceptWord('NOT');
      this.expectWord('NULL');
      return { ...pos(t), k: 'isnull', e: l, not };
    }
    if (this.peekWord('LIKE') || (this.peekWord('NOT') && this.peekWord('LIKE', 1))) {
      const not = this.acceptWord('NOT');
      this.i++;
      return { ...pos(t), k: 'like', e: l, pattern: this.bitwise(), not };
    }
    return l;
  }

  /** True inside WHERE/HAVING-like conditions where `=` means equality. */
  private comparing = false;

  private bitwise(): Expr {
    let l = this.shift();
    while (this.isPunct('|') || this.isPunct('&')) {
      const t = this.next();
      l = { ...pos(t), k: 'bin', op: t.text, l, r: this.shift() };
    }
    return l;
  }

  /** `<<` and `>>` are two touching `<` or `>` tokens (the lexer keeps `>>` apart for nested types). */
  private shift(): Expr {
    let l = this.additive();
    for (;;) {
      const a = this.peek();
      const b = this.peek(1);
      const touching = a.kind === 'punct' && b.kind === 'punct' && a.end === b.start && a.text === b.text;
      if (!touching || (a.text !== '<' && a.text !== '>')) return l;
      this.i += 2;
      l = { ...pos(a), k: 'bin', op: a.text === '<' ? '<<' : '>>', l, r: this.additive() };
    }
  }

  private additive(): Expr {
    let l = this.multiplicative();
    while (this.isPunct('+') || this.isPunct('-')) {
      const t = this.next();
      l = { ...pos(t), k: 'bin', op: t.text, l, r: this.multiplicative() };
    }
    return l;
  }

  private multiplicative(): Expr {
    let l = this.unary();
    while (this.isPunct('*') || this.isPunct('/') || this.isPunct('%')) {
      const t = this.next();
      l = { ...pos(t), k: 'bin', op: t.text, l, r: this.unary() };
    }
    return l;
  }

  private unary(): Expr {
    const t = this.peek();
    if (this.acceptPunct('-')) return { ...pos(t), k: 'un', op: '-', e: this.unary() };
    if (this.acceptPunct('+')) return this.unary();
    return this.postfix();
  }

  private postfix(): Expr {
    let e = this.primary();
    for (;;) {
      const t = this.peek();
      if (this.isPunct('.')) {
        this.i++;
        if (this.acceptPunct('@')) {
          const name = this.name();
          const prime = this.acceptPunct("'");
          e = { ...pos(t), k: 'vacc', obj: e, name, prime };
          continue;
        }
        if (this.isPunct('*')) return e;
        const name = this.name();
        if (this.isPunct('(')) e = { ...pos(t), k: 'method', obj: e, name, args: this.callArgs() };
        else e = { ...pos(t), k: 'attr', obj: e, name };
        continue;
      }
      if (this.isPunct('[') && (e.k === 'name' || e.k === 'gacc' || e.k === 'vacc' || e.k === 'index')) {
        // `S[S.name]` in PRINT is a projection, read by printItem: an index holds one expression and `]`.
        if (this.looksLikeProjection()) return e;
        this.i++;
        const idx = this.expr();
        this.expectPunct(']');
        e = { ...pos(t), k: 'index', obj: e, idx };
        continue;
      }
      return e;
    }
  }

  /** `X[` followed by `X.` or `X.@`: a PRINT projection rather than an index. */
  private looksLikeProjection(): boolean {
    const a = this.peek(1);
    const b = this.peek(2);
    return a.kind === 'word' && b.kind === 'punct' && b.text === '.';
  }

  private callArgs(): Expr[] {
    this.expectPunct('(');
    const args: Expr[] = [];
    if (!this.isPunct(')')) {
      do args.push(this.expr());
      while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    return args;
  }

  private primary(): Expr {
    const t = this.peek();
    const at = pos(t);
    if (t.kind === 'number') {
      this.i++;
      const int = /^\d+$/.test(t.text);
      return { ...at, k: 'lit', v: Number(t.text), int };
    }
    if (t.kind === 'string') {
      this.i++;
      return { ...at, k: 'lit', v: t.text };
    }
    if (t.kind === 'punct') {
      if (t.text === '@@') {
        this.i++;
        return { ...at, k: 'gacc', name: this.name() };
      }
      if (t.text === '@') {
        this.i++;
        if (this.acceptPunct('@')) return { ...at, k: 'gacc', name: this.name() };
        // A bare `@acc` (of the vertex in a POST-ACCUM per-vertex context) is not served.
        return this.fail(t);
      }
      if (t.text === '(') {
        this.i++;
        const items = [this.expr()];
        while (this.acceptPunct(',')) items.push(this.expr());
        if (this.acceptPunct('->')) {
          const vals = [this.expr()];
          while (this.acceptPunct(',')) vals.push(this.expr());
          this.expectPunct(')');
          return { ...at, k: 'arrow', keys: items, vals };
        }
        this.expectPunct(')');
        return items.length === 1 ? items[0]! : { ...at, k: 'paren', items };
      }
      if (t.text === '[') {
        this.i++;
        const items: Expr[] = [];
        if (!this.isPunct(']')) {
          do items.push(this.expr());
          while (this.acceptPunct(','));
        }
        this.expectPunct(']');
        return { ...at, k: 'list', items };
      }
      if (t.text === '{') return this.seed();
      return this.fail(t);
    }
    if (t.kind !== 'word') return this.fail(t);
    const w = t.text.toUpperCase();
    if (w === 'TRUE' || w === 'FALSE') {
      this.i++;
      return { ...at, k: 'lit', v: w === 'TRUE' };
    }
    if (w === 'SELECT') {
      this.i++;
      return { ...at, k: 'select', sel: this.selectBody(at, this.name()) };
    }
    if (w === 'CASE') {
      this.i++;
      const subject = this.peekWord('WHEN') ? undefined : this.expr();
      const whens: [Expr, Expr][] = [];
      while (this.acceptWord('WHEN')) {
        const c = this.expr();
        this.expectWord('THEN');
        whens.push([c, this.expr()]);
      }
      const elseE = this.acceptWord('ELSE') ? this.expr() : undefined;
      this.expectWord('END');
      return { ...at, k: 'case', subject, whens, else: elseE };
    }
    this.i++;
    if (this.isPunct('(')) return { ...at, k: 'call', name: t.text, args: this.callArgs() };
    return { ...at, k: 'name', name: t.text };
  }

  /** seed := "{" (Type.* | ANY | _ | expr) ("," …)* "}" */
  private seed(): Expr {
    const t = this.next();
    const items: ({ k: 'typeAll'; type: string } | { k: 'any' } | { k: 'expr'; e: Expr })[] = [];
    if (!this.isPunct('}')) {
      do {
        const a = this.peek();
        if (a.kind === 'word' && this.isPunctAt(1, '.') && this.isPunctAt(2, '*')) {
          this.i += 3;
          items.push({ k: 'typeAll', type: a.text });
        } else if (a.kind === 'word' && (a.text.toUpperCase() === 'ANY' || a.text === '_')) {
          this.i++;
          items.push({ k: 'any' });
        } else items.push({ k: 'expr', e: this.expr() });
      } while (this.acceptPunct(','));
    }
    this.expectPunct('}');
    return { ...pos(t), k: 'seed', items };
  }

  /** select := SELECT alias FROM source[:alias] [hop] [WHERE] [ACCUM] [POST-ACCUM]* [HAVING] [ORDER BY] [LIMIT] */
  private selectBody(at: { line: number; column: number }, out: string): Select {
    this.acceptWord('DISTINCT');
    this.expectWord('FROM');
    const source = this.name();
    const sourceAlias = this.acceptPunct(':') ? this.name() : undefined;
    const sel: Select = { ...at, out, source, sourceAlias, hops: [], accum: [], postAccum: [], orderBy: [] };
    while (this.isPunct('-') || (this.isPunct('<') && this.isPunctAt(1, '-'))) sel.hops.push(...this.hops());
    const saved = this.comparing;
    this.comparing = true;
    try {
      if (this.acceptWord('SAMPLE')) sel.sample = this.sampleClause();
      if (this.acceptWord('WHERE')) sel.where = this.expr();
    } finally {
      this.comparing = saved;
    }
    if (this.acceptWord('ACCUM')) sel.accum = this.clauseList();
    for (;;) {
      if (this.acceptWord('POST_ACCUM')) sel.postAccum.push(this.clauseList());
      else if (this.peekWord('POST') && this.isPunctAt(1, '-') && this.peekWord('ACCUM', 2)) {
        this.i += 3;
        sel.postAccum.push(this.clauseList());
      } else break;
    }
    this.comparing = true;
    try {
      if (this.acceptWord('HAVING')) sel.having = this.expr();
      if (this.acceptWord('ORDER')) {
        this.expectWord('BY');
        do {
          const e = this.expr();
          const desc = this.acceptWord('DESC');
          if (!desc) this.acceptWord('ASC');
          sel.orderBy.push({ e, desc });
        } while (this.acceptPunct(','));
      }
      if (this.acceptWord('LIMIT')) sel.limit = this.expr();
    } finally {
      this.comparing = saved;
    }
    return sel;
  }

  /** After SAMPLE: `size [%] (EDGE | TARGET [PINNED]) WHEN condition`. */
  private sampleClause(): NonNullable<Select['sample']> {
    // The size is a term, so that the `%` after it is not read as a remainder.
    const size = this.unary();
    const percent = this.acceptPunct('%');
    const t = this.peek();
    const by = this.acceptWord('EDGE') ? 'EDGE' : this.acceptWord('TARGET') ? 'TARGET' : this.fail(t);
    if (by === 'TARGET') this.acceptWord('PINNED');
    this.expectWord('WHEN');
    return { size, percent, by, when: this.expr() };
  }

  private clauseList(): Stmt[] {
    const list: Stmt[] = [];
    do {
      if (this.peek().kind === 'word' && clauseEnds.has(this.peek().text.toUpperCase())) break;
      list.push(this.stmt(true));
    } while (this.acceptPunct(','));
    return list;
  }

  /**
   * hop := -(E:e)-> T:t | -(E:e)- T:t | <-(E:e)- T:t ; E := name ("|" name)* | _ | ANY | nothing (any type)
   * In V2 each edge type may carry its direction instead, -(E>|<F:e)- T:t, be repeated,
   * -(E>*1..3)-, and hops may be joined through vertices left unnamed, -(E>.<F)- T:t.
   */
  private hops(): Hop[] {
    let dir: Hop['dir'] = 'any';
    if (this.acceptPunct('<')) dir = 'in';
    this.expectPunct('-');
    this.expectPunct('(');
    // V2's `-(E>.<F.G)-`: hops joined by `.` through vertices of any type that have no alias.
    const hops: Hop[] = [];
    do {
      const hop: Hop = { dir };
      if (!this.isPunct(':') && !this.isPunct(')') && !this.isPunct('.')) this.edgeChoice(hop);
      if (this.acceptPunct('*')) {
        hop.repeat = this.repetition();
        // A repeated edge binds no single edge, so GSQL gives it no alias.
        if (this.isPunct(':')) this.fail();
      }
      hops.push(hop);
    } while (this.acceptPunct('.'));
    const last = hops[hops.length - 1]!;
    if (this.isPunct(':') && hops.length > 1) this.fail();
    if (this.acceptPunct(':')) last.edgeAlias = this.name();
    this.expectPunct(')');
    if (this.acceptPunct('->')) {
      if (dir === 'in') this.fail(this.tokens[this.i - 1]);
      for (const hop of hops) hop.dir = 'out';
    } else this.expectPunct('-');
    if (!this.isPunct(':')) last.targetTypes = this.typeChoice();
    if (this.acceptPunct(':')) last.targetAlias = this.name();
    return hops;
  }

  /** After `*`: nothing (any number of edges), `n` (exactly), `n..`, `..m` or `n..m`. */
  private repetition(): { min: number; max: number } {
    const lo = this.wholeNumber();
    if (!this.acceptPunct('..')) return lo === undefined ? { min: 0, max: Infinity } : { min: lo, max: lo };
    const at = this.peek();
    const hi = this.wholeNumber();
    if (hi !== undefined && hi < (lo ?? 0)) this.fail(at);
    return { min: lo ?? 0, max: hi ?? Infinity };
  }

  /**
   * The edge types of a hop: V1's `E1|E2`, or V2's with a direction on each, `E1>|<E2|E3`
   * (`>` out of the vertex before, `<` into it, neither: an undirected type). `_` or `ANY`
   * among them: every type, in the one direction they are given.
   */
  private edgeChoice(hop: Hop): void {
    const types: string[] = [];
    const dirs: Hop['dir'][] = [];
    let any = false;
    let v2 = false;
    const paren = this.acceptPunct('(');
    do {
      const into = this.acceptPunct('<');
      const n = this.name();
      const out = this.acceptPunct('>');
      if (into && out) this.fail(this.tokens[this.i - 1]);
      const dir: Hop['dir'] = into ? 'in' : out ? 'out' : 'any';
      if (into || out) v2 = true;
      if (n === '_' || n.toUpperCase() === 'ANY') {
        any = true;
        hop.dir = dir;
      } else {
        types.push(n);
        dirs.push(dir);
      }
    } while (this.acceptPunct('|'));
    if (paren) this.expectPunct(')');
    if (!any) hop.edgeTypes = types;
    if (v2 && !any) hop.dirs = dirs;
  }

  /** `T`, `T1|T2`, `(T1|T2)`; undefined for `_` or `ANY` among them: every type. */
  private typeChoice(): string[] | undefined {
    const types: string[] = [];
    let any = false;
    const paren = this.acceptPunct('(');
    do {
      const n = this.name();
      if (n === '_' || n.toUpperCase() === 'ANY') any = true;
      else types.push(n);
    } while (this.acceptPunct('|'));
    if (paren) this.expectPunct(')');
    return any ? undefined : types;
  }

  // Token helpers.

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'end') this.i++;
    return t;
  }

  private isPunct(p: string): boolean {
    return this.isPunctAt(0, p);
  }

  private isPunctAt(offset: number, p: string): boolean {
    const t = this.peek(offset);
    return t.kind === 'punct' && t.text === p;
  }

  private acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.i++;
    return true;
  }

  private expectPunct(p: string): void {
    if (!this.acceptPunct(p)) this.fail();
  }

  private peekWord(w: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'word' && t.text.toUpperCase() === w;
  }

  private acceptWord(w: string): boolean {
    if (!this.peekWord(w)) return false;
    this.i++;
    return true;
  }

  private expectWord(w: string): void {
    if (!this.acceptWord(w)) this.fail();
  }

  private word(): string {
    const t = this.peek();
    if (t.kind !== 'word') this.fail();
    this.i++;
    return t.text.toUpperCase();
  }

  private name(): string {
    const t = this.peek();
    if (t.kind !== 'word') this.fail();
    this.i++;
    return t.text;
  }

  private fail(t: Token = this.peek()): never {
    this.failedAt = Math.max(this.failedAt, this.i);
    const shown = t.kind === 'end' ? '<EOF>' : t.kind === 'break' ? '<EOL>' : t.text;
    throw new GsqlSyntaxError(`Encountered "${shown}" at line ${t.line}, column ${t.column}.`, t.line, t.column);
  }
}

const pos = (t: Token) => ({ line: t.line, column: t.column });

/** Parses one query statement from its tokens (as the splitter cut it, `end` last). */
export function parseQueryStatement(tokens: Token[], text: string): QueryStatement {
  // `ELSE IF c THEN … END` is either the next branch of the IF or an ELSE holding an IF statement
  // (which then needs an END of its own). Each ELSE IF is read as a branch first; when the parse
  // fails, the last ELSE IF before the failure is read the other way, and the parse runs again.
  const nested = new Set<number>();
  let firstError: unknown;
  for (let attempt = 0; attempt < 64; attempt++) {
    const p = new QueryParser(tokens, text, nested);
    try {
      const st = p.statement();
      p.done();
      return st;
    } catch (err) {
      if (!(err instanceof GsqlSyntaxError)) throw err;
      firstError ??= err;
      const flip = p.elseIfs.filter((at) => at < p.failedAt && !nested.has(at)).pop();
      if (flip === undefined) break;
      nested.add(flip);
    }
  }
  throw firstError;
}
