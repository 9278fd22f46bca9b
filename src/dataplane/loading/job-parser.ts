import { GsqlSyntaxError, type Token } from '../gsql-lexer.js';
import type {
  DeleteStatementDef,
  LoadingJobDef,
  LoadingStatement,
  LoadOptions,
  LoadStatementDef,
  LoadTarget,
  LoadValue,
  Reducer,
  TextValue,
} from './job-types.js';
import { defaultLoadOptions, reducers } from './job-types.js';
import { isText } from './job-values.js';
import { tokenFunctions } from './token-functions.js';
import { parseWhere, readsOf, targetTokens, tokenRefusal } from './job-where.js';

/** The part of the GSQL parser a loading-job statement is read through: one token of look-ahead, and its errors. */
export interface TokenCursor {
  peek(offset?: number): Token;
  advance(count?: number): void;
  fail(t?: Token): never;
}

const usingKeys = new Set(['SEPARATOR', 'HEADER', 'EOL', 'QUOTE', 'JSON_FILE']);

/** Small readers over the cursor, in the GSQL parser's own terms. */
class Reader {
  constructor(readonly c: TokenCursor) {}

  peek(offset = 0): Token {
    return this.c.peek(offset);
  }
  isPunct(p: string, offset = 0): boolean {
    const t = this.c.peek(offset);
    return t.kind === 'punct' && t.text === p;
  }
  acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.c.advance();
    return true;
  }
  expectPunct(p: string): void {
    if (!this.acceptPunct(p)) this.c.fail();
  }
  isKeyword(word: string, offset = 0): boolean {
    const t = this.c.peek(offset);
    return t.kind === 'word' && t.text.toUpperCase() === word;
  }
  acceptKeyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.c.advance();
    return true;
  }
  expectKeyword(word: string): void {
    if (!this.acceptKeyword(word)) this.c.fail();
  }
  name(): string {
    const t = this.c.peek();
    if (t.kind !== 'word') this.c.fail();
    this.c.advance();
    return t.text;
  }
  string(): string {
    const t = this.c.peek();
    if (t.kind !== 'string') this.c.fail();
    this.c.advance();
    return t.text;
  }
  /** A refusal that names where it is, as GSQL's own errors do. */
  error(t: Token, message: string): never {
    throw new GsqlSyntaxError(`${message} (at line ${t.line}, column ${t.column})`, t.line, t.column);
  }
}

/** `CREATE LOADING JOB name FOR GRAPH g { … }`, read after `CREATE LOADING`. */
export function parseCreateLoadingJob(cursor: TokenCursor): LoadingStatement {
  const r = new Reader(cursor);
  r.expectKeyword('JOB');
  const name = r.name();
  r.expectKeyword('FOR');
  r.expectKeyword('GRAPH');
  const job: LoadingJobDef = { name, graph: r.name(), files: [], loads: [] };
  r.expectPunct('{');
  const defined = new Set<string>();
  while (!r.acceptPunct('}')) {
    if (r.acceptPunct(';')) continue;
    const t = r.peek();
    if (r.acceptKeyword('DEFINE')) {
      r.expectKeyword('FILENAME');
      const fileTok = r.peek();
      const file = r.name();
      if (defined.has(file)) r.error(fileTok, `The file name ${file} is defined twice`);
      defined.add(file);
      job.files.push(r.acceptPunct('=') ? { name: file, path: r.string() } : { name: file });
    } else if (r.acceptKeyword('LOAD')) {
      job.loads.push(loadStatement(r, defined));
    } else if (r.acceptKeyword('DELETE')) {
      (job.deletes ??= []).push(deleteStatement(r, defined, t));
    } else {
      cursor.fail();
    }
    if (!r.isPunct('}')) r.expectPunct(';');
  }
  if (job.loads.length === 0 && !job.deletes)
    r.error(r.peek(), `The loading job ${name} has no LOAD or DELETE statement`);
  return { kind: 'createLoadingJob', job };
}

/** The file variable a statement reads: one DEFINE FILENAME named. */
function fileVariable(r: Reader, defined: Set<string>, statement: string): { file: string; fileTok: Token } {
  const fileTok = r.peek();
  if (fileTok.kind === 'string')
    r.error(fileTok, `${statement} needs a file variable from DEFINE FILENAME, not a path`);
  const file = r.name();
  if (!defined.has(file)) r.error(fileTok, `The file name ${file} is not defined by DEFINE FILENAME`);
  return { file, fileTok };
}

/**
 * `DELETE VERTEX T (PRIMARY_ID id) FROM f`, `DELETE EDGE E (FROM id[, TO id]) FROM f`, `DELETE
 * EDGE * (FROM id T) FROM f`, each with an optional `WHERE`; read after `DELETE`.
 */
function deleteStatement(r: Reader, defined: Set<string>, at: Token): DeleteStatementDef {
  const kindTok = r.peek();
  const id = () => {
    const idTok = r.peek();
    const v = textValue(r);
    return v.kind === 'skip' ? r.error(idTok, 'An id to delete cannot be _') : v;
  };
  let def: Omit<DeleteStatementDef, 'file' | 'line' | 'column'>;
  if (r.acceptKeyword('VERTEX')) {
    const type = r.name();
    r.expectPunct('(');
    r.expectKeyword('PRIMARY_ID');
    def = { kind: 'vertex', type, from: id() };
  } else if (r.acceptKeyword('EDGE')) {
    if (r.acceptPunct('*')) {
      r.expectPunct('(');
      r.expectKeyword('FROM');
      const from = id();
      def = { kind: 'anyEdge', from, type: r.name() };
    } else {
      const type = r.name();
      r.expectPunct('(');
      r.expectKeyword('FROM');
      def = { kind: 'edge', type, from: id() };
      if (r.acceptPunct(',')) {
        if (r.isKeyword('DISCRIMINATOR')) r.error(r.peek(), 'DISCRIMINATOR is not supported by this data plane');
        r.expectKeyword('TO');
        def.to = id();
      }
    }
  } else {
    return r.c.fail(kindTok);
  }
  r.expectPunct(')');
  r.expectKeyword('FROM');
  const { file } = fileVariable(r, defined, 'DELETE');
  const statement: DeleteStatementDef = { ...def, file, line: at.line, column: at.column };
  if (r.acceptKeyword('WHERE')) statement.where = parseWhere(r, () => textValue(r));
  return statement;
}

function loadStatement(r: Reader, defined: Set<string>): LoadStatementDef {
  const { file, fileTok } = fileVariable(r, defined, 'LOAD');
  const targets: LoadTarget[] = [];
  do {
    const at = r.peek();
    r.expectKeyword('TO');
    const kindTok = r.peek();
    const kind = r.acceptKeyword('VERTEX') ? 'vertex' : r.acceptKeyword('EDGE') ? 'edge' : r.c.fail(kindTok);
    const type = r.name();
    r.expectKeyword('VALUES');
    r.expectPunct('(');
    const values: LoadValue[] = [];
    const endTypes: TextValue[] = [];
    do {
      values.push(loadValue(r));
      // An edge's id may be followed by its vertex type.
      if (kind === 'edge' && values.length <= 2 && !r.isPunct(',') && !r.isPunct(')'))
        endTypes[values.length - 1] = endType(r);
    } while (r.acceptPunct(','));
    r.expectPunct(')');
    const target: LoadTarget = { kind, type, values, line: at.line, column: at.column };
    if (endTypes[0]) target.fromType = endTypes[0];
    if (endTypes[1]) target.toType = endTypes[1];
    if (r.acceptKeyword('WHERE')) target.where = parseWhere(r, () => textValue(r));
    targets.push(target);
  } while (r.acceptPunct(','));
  const options: LoadOptions = { ...defaultLoadOptions };
  if (r.acceptKeyword('USING')) {
    do {
      const keyTok = r.peek();
      const key = r.name().toUpperCase();
      if (!usingKeys.has(key))
        r.error(keyTok, `The USING option ${key} is not supported; use SEPARATOR, HEADER, EOL, QUOTE or JSON_FILE`);
      r.expectPunct('=');
      const valueTok = r.peek();
      const value = r.string();
      usingOption(r, options, key, value, valueTok);
    } while (r.acceptPunct(','));
  }
  const refusal = tokenRefusal(
    targets.flatMap((t) => targetTokens(t).flatMap(readsOf)),
    options,
  );
  if (refusal) r.error(fileTok, refusal);
  return { file, targets, options };
}

function usingOption(r: Reader, options: LoadOptions, key: string, value: string, at: Token): void {
  switch (key) {
    case 'SEPARATOR':
    case 'EOL': {
      const ch = oneCharacter(value);
      if (ch === undefined) r.error(at, `${key} must be one character`);
      if (key === 'SEPARATOR') options.separator = ch;
      else options.eol = ch;
      return;
    }
    case 'HEADER':
    case 'JSON_FILE': {
      if (!/^(true|false)$/i.test(value)) r.error(at, `${key} must be "true" or "false"`);
      const on = value.toLowerCase() === 'true';
      if (key === 'HEADER') options.header = on;
      else if (on) options.json = true;
      return;
    }
    case 'QUOTE': {
      const q = value.toLowerCase();
      if (q !== 'double' && q !== 'single') r.error(at, 'QUOTE must be "double" or "single"');
      options.quote = q === 'double' ? '"' : "'";
    }
  }
}

/** A separator or line end as written: one character, or one of GSQL's names and escapes for it. */
export function oneCharacter(value: string): string | undefined {
  const named: Record<string, string> = { '\\t': '\t', '\\n': '\n', '\\r': '\r', tab: '\t', comma: ',' };
  const ch = named[value] ?? value;
  return [...ch].length === 1 ? ch : undefined;
}

/** The vertex type after an edge's id: a type name, or a token (or literal) that names one. */
function endType(r: Reader): TextValue {
  const t = r.peek();
  if (t.kind === 'word' && !r.isPunct('(', 1) && t.text !== '_') {
    r.c.advance();
    return { kind: 'literal', value: t.text };
  }
  const v = textValue(r);
  return v.kind === 'skip' ? r.error(t, 'The vertex type of an edge end cannot be _') : v;
}

/** What builds a `VALUES` item's value out of text, by upper-cased name: not token functions. */
const builders = new Set(['SPLIT', 'LIST', 'SET', 'MAP', 'REDUCE']);

/**
 * One `VALUES` item: text, or what builds a collection or tuple attribute out of text —
 * `SPLIT(…)`, `LIST(…)`, `SET(…)`, `MAP(…)`, `(key -> value)`, `TupleName(…)`. Whether the
 * attribute takes it is the schema's to say (job-values.ts), when the job is checked.
 */
function loadValue(r: Reader): LoadValue {
  const t = r.peek();
  if (r.isPunct('(')) {
    r.c.advance();
    const key = textValue(r);
    r.expectPunct('->');
    const value = loadValue(r);
    r.expectPunct(')');
    return { kind: 'pair', key, value };
  }
  if (t.kind !== 'word' || !r.isPunct('(', 1) || t.text.toLowerCase() in tokenFunctions) return textValue(r);
  const name = t.text.toUpperCase();
  r.c.advance(2);
  if (name === 'REDUCE') {
    const fnTok = r.peek();
    const fn = fnTok.kind === 'word' && r.isPunct('(', 1) ? fnTok.text.toLowerCase() : '';
    if (!reducers.includes(fn as Reducer))
      r.error(fnTok, `REDUCE takes one of the reducer functions ${reducers.join(', ')}, applied to a value`);
    r.c.advance(2);
    const arg = loadValue(r);
    if (!isText(arg) && arg.kind !== 'pair' && arg.kind !== 'tuple')
      r.error(fnTok, `${fn} reduces a token, a (key -> value) pair or a tuple`);
    if (arg.kind === 'skip') r.error(fnTok, `_ cannot be reduced`);
    r.expectPunct(')');
    r.expectPunct(')');
    return { kind: 'reduce', fn: fn as Reducer, arg };
  }
  const items: LoadValue[] = [];
  if (!r.isPunct(')'))
    do items.push(loadValue(r));
    while (r.acceptPunct(','));
  r.expectPunct(')');
  const text = (v: LoadValue): TextValue => {
    if (isText(v) && v.kind !== 'skip') return v;
    return r.error(t, `The arguments of ${t.text} must be tokens, literals or token functions`);
  };
  if (name === 'SPLIT') {
    const [arg, ...separators] = items;
    if (!arg || separators.length < 1 || separators.length > 2)
      r.error(t, `SPLIT takes a value and one or two separators, not ${items.length} argument(s)`);
    if (separators.some((s) => s.kind !== 'literal' || s.value === ''))
      r.error(t, 'The separators of SPLIT must be non-empty strings written in the job');
    return { kind: 'split', arg: text(arg!), separators: separators.map((s) => (s as { value: string }).value) };
  }
  if (name === 'MAP') {
    if (items.length === 0 || items.some((i) => i.kind !== 'pair'))
      r.error(t, 'MAP takes one or more (key -> value) pairs');
    return { kind: 'collection', of: 'MAP', items };
  }
  if (name === 'LIST' || name === 'SET') {
    if (items.length === 0 || items.some((i) => !isText(i) && i.kind !== 'tuple'))
      r.error(t, `${name} takes one or more tokens, literals, token functions or tuples`);
    return { kind: 'collection', of: name, items: items.map((i) => (i.kind === 'tuple' ? i : text(i))) };
  }
  // Any other name before "(" is a tuple type's (the schema says whether there is one), unless
  // it is named as a token function: that one is not served.
  if (/^gsql_/i.test(t.text) || builders.has(name))
    r.error(t, `The token function ${t.text} is not supported by this data plane`);
  return { kind: 'tuple', name: t.text, fields: items.map(text) };
}

/** A value that is text: a token, a literal, `_`, or a token function of text. */
function textValue(r: Reader): TextValue {
  const t = r.peek();
  if (r.acceptPunct('$')) {
    const col = r.peek();
    if (col.kind === 'number' && /^\d+$/.test(col.text)) {
      r.c.advance();
      return { kind: 'column', index: Number(col.text) };
    }
    if (col.kind === 'string') {
      r.c.advance();
      if (!(r.isPunct(':') && r.peek(1).kind === 'string')) return { kind: 'columnName', name: col.text };
      const path = [col.text];
      while (r.isPunct(':') && r.peek(1).kind === 'string') {
        path.push(r.peek(1).text);
        r.c.advance(2);
      }
      return { kind: 'columnName', name: path.join(':'), path };
    }
    return r.c.fail(col);
  }
  if (t.kind === 'string' || t.kind === 'number') {
    r.c.advance();
    return { kind: 'literal', value: t.text };
  }
  if (t.kind === 'word' && t.text === '_') {
    r.c.advance();
    return { kind: 'skip' };
  }
  if (t.kind === 'word' && r.isPunct('(', 1)) {
    if (builders.has(t.text.toUpperCase()))
      r.error(t, `${t.text.toUpperCase()}(…) builds an attribute's value; it cannot be used here`);
    const fn = t.text.toLowerCase();
    const arity = tokenFunctions[fn];
    if (arity === undefined) r.error(t, `The token function ${t.text} is not supported by this data plane`);
    r.c.advance(2);
    const args: TextValue[] = [];
    if (!r.isPunct(')'))
      do args.push(textValue(r));
      while (r.acceptPunct(','));
    r.expectPunct(')');
    if (args.length < arity.min || args.length > arity.max) {
      const takes = arity.min === arity.max ? `${arity.min}` : `${arity.min} to ${arity.max}`;
      r.error(t, `${t.text} takes ${takes} argument(s), not ${args.length}`);
    }
    if (args.some((a) => a.kind === 'skip')) r.error(t, `_ cannot be an argument of ${t.text}`);
    for (const i of arity.counts ?? []) {
      const a = args[i];
      if (a && (a.kind !== 'literal' || !/^\d+$/.test(a.value)))
        r.error(t, `Argument ${i + 1} of ${t.text} must be a whole number written in the job`);
    }
    return { kind: 'call', fn, args };
  }
  return r.c.fail(t);
}

/** `RUN LOADING JOB [-noprint] name [USING f = "path", …]`, read after `RUN`. */
export function parseRunLoadingJob(cursor: TokenCursor): LoadingStatement {
  const r = new Reader(cursor);
  r.expectKeyword('LOADING');
  r.expectKeyword('JOB');
  while (r.acceptPunct('-')) r.name();
  const name = r.name();
  const files: Record<string, string> = {};
  if (r.acceptKeyword('USING')) {
    do {
      const key = r.name();
      r.expectPunct('=');
      const value = r.string();
      // EOF="true" asks for the end of a streamed file: every file here is read to its end anyway.
      if (key.toUpperCase() !== 'EOF') files[key] = value;
    } while (r.acceptPunct(','));
  }
  return { kind: 'runLoadingJob', name, files };
}
