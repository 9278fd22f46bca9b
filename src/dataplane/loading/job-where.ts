import type { Token } from '../gsql-lexer.js';
import type { DeleteStatementDef, LoadCondition, LoadOptions, LoadTarget, LoadValue, TextValue } from './job-types.js';

/**
 * The `WHERE` clause of a LOAD destination: a condition over a line's tokens, read once when the
 * job is created (where a wrong operand is refused with its line and column) and compiled to a
 * function of the line's fields when a file is loaded. Tokens are text, as in TigerGraph's
 * loader: numbers come from `to_int`/`to_float`/`token_len` and numeric literals, and an
 * operator never compares text with a number.
 */

/** What an expression gives; `int` and `float` are both numbers, `/` of two ints is whole, as in C++. */
type Kind = 'str' | 'int' | 'float' | 'bool';

/** The reader the loading-job parser lends: tokens, and its refusals. */
export interface WhereReader {
  peek(offset?: number): Token;
  isPunct(p: string, offset?: number): boolean;
  acceptPunct(p: string): boolean;
  expectPunct(p: string): void;
  isKeyword(word: string, offset?: number): boolean;
  acceptKeyword(word: string): boolean;
  error(t: Token, message: string): never;
  readonly c: { advance(count?: number): void; fail(t?: Token): never };
}

/** The WHERE functions of TigerGraph's loader: argument kinds and the kind of the answer. */
const whereFunctions: Record<string, { args: Kind[]; out: Kind }> = {
  to_int: { args: ['str'], out: 'int' },
  to_float: { args: ['str'], out: 'float' },
  concat: { args: ['str', 'str'], out: 'str' },
  token_len: { args: ['str'], out: 'int' },
  gsql_is_not_empty_string: { args: ['str'], out: 'bool' },
  gsql_token_equal: { args: ['str', 'str'], out: 'bool' },
  gsql_token_ignore_case_equal: { args: ['str', 'str'], out: 'bool' },
  gsql_is_true: { args: ['str'], out: 'bool' },
  gsql_is_false: { args: ['str'], out: 'bool' },
};

const comparisons = new Set(['<', '>', '<=', '>=', '==', '!=']);
const isNumber = (k: Kind) => k === 'int' || k === 'float';
const kindName = (k: Kind) => (k === 'str' ? 'STRING' : k === 'bool' ? 'BOOL' : 'a number');

/** TigerGraph's `IS NUMERIC`: digits, an optional fraction and exponent, spaces around allowed. */
const NUMERIC = /^[+-]?[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?$/;

/**
 * Reads a condition after `WHERE`. `value` reads a token the way `VALUES` does (`$0`, `$"name"`,
 * or a VALUES token function of them).
 */
export function parseWhere(r: WhereReader, value: () => TextValue): LoadCondition {
  const typed = (at: Token, c: LoadCondition, kind: Kind) => ({ at, c, kind });
  type Typed = ReturnType<typeof typed>;

  const want = (t: Typed, ok: (k: Kind) => boolean, what: string): LoadCondition => {
    if (!ok(t.kind)) r.error(t.at, `The WHERE clause needs ${what} here, not ${kindName(t.kind)}`);
    return t.c;
  };
  const bool = (t: Typed) => want(t, (k) => k === 'bool', 'a condition');
  const num = (t: Typed) => want(t, isNumber, 'a number (convert a token with to_int or to_float)');
  const sameKind = (a: Typed, b: Typed, at: Token) => {
    if (a.kind === b.kind || (isNumber(a.kind) && isNumber(b.kind))) return;
    r.error(
      at,
      `The WHERE clause compares ${kindName(a.kind)} with ${kindName(b.kind)}; convert with to_int or to_float`,
    );
  };

  const or = (): Typed => {
    let left = and();
    for (let at = r.peek(); r.acceptKeyword('OR'); at = r.peek())
      left = typed(at, { kind: 'binary', op: 'OR', left: bool(left), right: bool(and()) }, 'bool');
    return left;
  };
  const and = (): Typed => {
    let left = not();
    for (let at = r.peek(); r.acceptKeyword('AND'); at = r.peek())
      left = typed(at, { kind: 'binary', op: 'AND', left: bool(left), right: bool(not()) }, 'bool');
    return left;
  };
  const not = (): Typed => {
    const at = r.peek();
    if (r.acceptKeyword('NOT')) return typed(at, { kind: 'unary', op: 'NOT', arg: bool(not()) }, 'bool');
    return predicate();
  };
  const predicate = (): Typed => {
    const left = sum();
    const at = r.peek();
    if (at.kind === 'punct' && comparisons.has(at.text)) {
      r.c.advance();
      const right = sum();
      sameKind(left, right, at);
      return typed(at, { kind: 'binary', op: at.text, left: left.c, right: right.c }, 'bool');
    }
    if (r.acceptKeyword('IS')) {
      const testTok = r.peek();
      const test = r.acceptKeyword('NUMERIC') ? 'NUMERIC' : r.acceptKeyword('EMPTY') ? 'EMPTY' : r.c.fail(testTok);
      return typed(at, { kind: 'is', test, arg: want(left, (k) => k === 'str', 'a token') }, 'bool');
    }
    if (r.acceptKeyword('IN')) {
      r.expectPunct('(');
      const set: LoadCondition[] = [];
      do {
        const item = sum();
        sameKind(left, item, item.at);
        set.push(item.c);
      } while (r.acceptPunct(','));
      r.expectPunct(')');
      return typed(at, { kind: 'in', arg: left.c, set }, 'bool');
    }
    if (r.acceptKeyword('BETWEEN')) {
      const low = sum();
      const andTok = r.peek();
      if (!r.acceptKeyword('AND')) r.c.fail(andTok);
      const high = sum();
      sameKind(left, low, at);
      sameKind(left, high, at);
      return typed(at, { kind: 'between', arg: left.c, low: low.c, high: high.c }, 'bool');
    }
    return left;
  };
  const arithmetic = (next: () => Typed, ops: string[]) => (): Typed => {
    let left = next();
    for (let at = r.peek(); at.kind === 'punct' && ops.includes(at.text); at = r.peek()) {
      r.c.advance();
      const right = next();
      const ints = left.kind === 'int' && right.kind === 'int';
      const c: LoadCondition = { kind: 'binary', op: at.text, left: num(left), right: num(right) };
      if (at.text === '/' && ints) c.whole = true;
      left = typed(at, c, ints && at.text !== '^' ? 'int' : 'float');
    }
    return left;
  };
  const unary = (): Typed => {
    const at = r.peek();
    if (r.acceptPunct('-')) {
      const arg = unary();
      return typed(at, { kind: 'unary', op: '-', arg: num(arg) }, arg.kind);
    }
    return primary();
  };
  const power = arithmetic(unary, ['^']);
  const product = arithmetic(power, ['*', '/']);
  const sum = arithmetic(product, ['+', '-']);

  const primary = (): Typed => {
    const t = r.peek();
    if (r.acceptPunct('(')) {
      const inner = or();
      r.expectPunct(')');
      return inner;
    }
    if (t.kind === 'string') {
      r.c.advance();
      return typed(t, { kind: 'string', value: t.text }, 'str');
    }
    if (t.kind === 'number') {
      r.c.advance();
      const int = /^\d+$/.test(t.text);
      return typed(t, { kind: 'number', value: Number(t.text), int }, int ? 'int' : 'float');
    }
    const fn = t.kind === 'word' && r.isPunct('(', 1) ? whereFunctions[t.text.toLowerCase()] : undefined;
    if (fn) {
      r.c.advance(2);
      const args: Typed[] = [];
      if (!r.isPunct(')'))
        do args.push(or());
        while (r.acceptPunct(','));
      r.expectPunct(')');
      if (args.length !== fn.args.length)
        r.error(t, `${t.text} takes ${fn.args.length} argument(s), not ${args.length}`);
      const checked = args.map((a, i) => want(a, (k) => k === fn.args[i], 'text'));
      return typed(t, { kind: 'call', fn: t.text.toLowerCase(), args: checked }, fn.out);
    }
    // A column, or a VALUES token function of columns and literals.
    return typed(t, { kind: 'token', value: value() }, 'str');
  };

  return bool(or());
}

type Value = string | number | boolean;
/** A compiled expression: its value on a line. */
type Eval = (fields: string[]) => Value;

/**
 * Thrown where a value cannot be made on a line (`to_int("x")`, a division by zero): the whole
 * condition is then false, however deep the failure sits (under NOT or OR too).
 */
class NoValue extends Error {}
/** One instance, made once: throwing it costs no stack trace per line. */
const NO_VALUE = new NoValue('no value on this line');
const noValue = (): never => {
  throw NO_VALUE;
};

/** The columns, keys and literals a value reads, through the token functions, collections and tuples it builds. */
export function readsOf(v: LoadValue): TextValue[] {
  switch (v.kind) {
    case 'call':
      return v.args.flatMap(readsOf);
    case 'split':
      return readsOf(v.arg);
    case 'collection':
      return v.items.flatMap(readsOf);
    case 'pair':
      return [...readsOf(v.key), ...readsOf(v.value)];
    case 'tuple':
      return v.fields.flatMap(readsOf);
    case 'reduce':
      return readsOf(v.arg);
    default:
      return [v];
  }
}

/** The tokens a destination reads, its VALUES and its condition: the columns a line must have, the header it needs. */
export function targetTokens(t: LoadTarget): LoadValue[] {
  const ends = [t.fromType, t.toType].filter((v) => v !== undefined);
  return [...t.values, ...ends, ...(t.where ? conditionTokens(t.where) : [])];
}

/** The tokens a `DELETE` reads: its ids and its condition. */
export function deleteTokens(d: DeleteStatementDef): LoadValue[] {
  return [d.from, ...(d.to ? [d.to] : []), ...(d.where ? conditionTokens(d.where) : [])];
}

/** Why tokens cannot be read from a file read with `options`, or undefined when they can. */
export function tokenRefusal(tokens: TextValue[], options: LoadOptions): string | undefined {
  if (options.json) {
    // A JSON object's values have no order to number them by.
    if (tokens.some((v) => v.kind === 'column')) return 'A JSON file is read by key: use $"key", not $0';
    if (options.header) return 'HEADER="true" does not apply to a JSON file';
    return undefined;
  }
  if (tokens.some((v) => v.kind === 'columnName' && v.path))
    return 'A nested key $"a":"b" reads a JSON file: it needs USING JSON_FILE="true"';
  if (!options.header && tokens.some((v) => v.kind === 'columnName'))
    return 'A column named by $"name" needs USING HEADER="true"';
  return undefined;
}

function conditionTokens(c: LoadCondition): LoadValue[] {
  switch (c.kind) {
    case 'token':
      return [c.value];
    case 'string':
    case 'number':
      return [];
    case 'call':
      return c.args.flatMap(conditionTokens);
    case 'unary':
    case 'is':
      return conditionTokens(c.arg);
    case 'binary':
      return [...conditionTokens(c.left), ...conditionTokens(c.right)];
    case 'in':
      return [c.arg, ...c.set].flatMap(conditionTokens);
    case 'between':
      return [c.arg, c.low, c.high].flatMap(conditionTokens);
  }
}

/**
 * A condition as a function of a line's fields. `token` reads one VALUES-style token. A
 * conversion that fails on a line (`to_int("x")`, a division by zero) makes the condition false
 * there, so the line makes no object of the target.
 */
export function compileCondition(
  c: LoadCondition,
  token: (v: TextValue) => (fields: string[]) => string | undefined,
): (fields: string[]) => boolean {
  const ev = compile(c, token);
  return (fields) => {
    try {
      return ev(fields) === true;
    } catch (err) {
      if (err === NO_VALUE) return false;
      throw err;
    }
  };
}

function compile(c: LoadCondition, token: (v: TextValue) => (fields: string[]) => string | undefined): Eval {
  const sub = (x: LoadCondition) => compile(x, token);
  switch (c.kind) {
    case 'token': {
      const read = token(c.value);
      return (f) => read(f) ?? noValue();
    }
    case 'string':
    case 'number': {
      const v = c.value;
      return () => v;
    }
    case 'call': {
      const fn = callOf(c.fn);
      const args = c.args.map(sub);
      return (f) => fn(args.map((a) => a(f) as string)) ?? noValue();
    }
    case 'unary': {
      const arg = sub(c.arg);
      return c.op === 'NOT' ? (f) => !arg(f) : (f) => -(arg(f) as number);
    }
    case 'binary': {
      const left = sub(c.left);
      const right = sub(c.right);
      if (c.op === 'AND') return (f) => left(f) === true && right(f) === true;
      if (c.op === 'OR') return (f) => left(f) === true || right(f) === true;
      const op = binaryOf(c.op, c.whole === true);
      return (f) => op(left(f), right(f)) ?? noValue();
    }
    case 'is': {
      const arg = sub(c.arg);
      const test = c.test === 'EMPTY' ? (s: string) => s === '' : (s: string) => NUMERIC.test(s.trim());
      return (f) => test(arg(f) as string);
    }
    case 'in': {
      const arg = sub(c.arg);
      // A list of literals, the usual form, is looked up at once: a long list costs no more per line.
      if (c.set.every((x) => x.kind === 'string' || x.kind === 'number')) {
        const literals = new Set(c.set.map((x) => (x as { value: Value }).value));
        return (f) => literals.has(arg(f));
      }
      const set = c.set.map(sub);
      return (f) => {
        const v = arg(f);
        return set.some((s) => s(f) === v);
      };
    }
    case 'between': {
      const [arg, low, high] = [c.arg, c.low, c.high].map(sub) as [Eval, Eval, Eval];
      return (f) => {
        const v = arg(f);
        return low(f) <= v && v <= high(f);
      };
    }
  }
}

function binaryOf(op: string, whole: boolean): (a: Value, b: Value) => Value | undefined {
  type N = number;
  switch (op) {
    case '+':
      return (a, b) => (a as N) + (b as N);
    case '-':
      return (a, b) => (a as N) - (b as N);
    case '*':
      return (a, b) => (a as N) * (b as N);
    case '/':
      return (a, b) => ((b as N) === 0 ? undefined : whole ? Math.trunc((a as N) / (b as N)) : (a as N) / (b as N));
    case '^':
      return (a, b) => Math.pow(a as N, b as N);
    case '==':
      return (a, b) => a === b;
    case '!=':
      return (a, b) => a !== b;
    case '<':
      return (a, b) => a < b;
    case '>':
      return (a, b) => a > b;
    case '<=':
      return (a, b) => a <= b;
    case '>=':
      return (a, b) => a >= b;
    default:
      throw new Error(`no operator ${op}`);
  }
}

function callOf(fn: string): (args: string[]) => Value | undefined {
  switch (fn) {
    case 'to_int':
      return ([s]) => (NUMERIC.test(s!.trim()) ? Math.trunc(Number(s)) : undefined);
    case 'to_float':
      return ([s]) => (NUMERIC.test(s!.trim()) ? Number(s) : undefined);
    case 'concat':
      return ([a, b]) => a! + b!;
    case 'token_len':
      return ([s]) => [...s!].length;
    case 'gsql_is_not_empty_string':
      return ([s]) => s!.trim() !== '';
    case 'gsql_token_equal':
      return ([a, b]) => a === b;
    case 'gsql_token_ignore_case_equal':
      return ([a, b]) => a!.toLowerCase() === b!.toLowerCase();
    case 'gsql_is_true':
      return ([s]) => /^(t|true)$/i.test(s!.trim());
    case 'gsql_is_false':
      return ([s]) => /^(f|false)$/i.test(s!.trim());
    default:
      throw new Error(`no WHERE function ${fn}`);
  }
}
