import { formatDatetime } from '../attribute-values.js';
import { DataPlaneError } from '../errors.js';
import { planUpsert } from '../upsert-plan.js';
import { writeUpsert } from '../upsert-write.js';
import { deleteIds } from '../vertex-ops.js';
import type { Catalog } from '../catalog.js';
import type { AttributeValue, GraphDef } from '../schema-types.js';
import { Acc, accFactory, accValueType, ArrayAcc, ArrayElement, Arrow, isFloat32 } from './accums.js';
import type { AccType, Expr, Hop, Param, QueryDef, Select, Stmt, TypeRef } from './ast.js';
import { toEpoch, Vertex, type Adjacency, type GraphView } from './graph-view.js';
import { VertexAccs, vertexAccKind, type Frame, type Run } from './runtime.js';
import { copying, madeString } from './memory-guard.js';
import { RowBits, walkPaths } from './path-walk.js';
import { csvField, type QueryFiles } from './query-files.js';
import {
  compare,
  defaultOf,
  EdgeRef,
  eq,
  isDatetime,
  jsonOf,
  keyedApart,
  keyOf,
  QueryRuntimeError,
  textOf,
  Tuple,
} from './values.js';
import { likeMatcher } from './like.js';

/** A compile-time refusal: the query is not valid for this graph; names where. */
export class QuerySemanticError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} (line ${line}, column ${column})`);
  }
}

type Fn = (f: Frame) => unknown;
/** What a statement leaves to its block: undefined to go on, or BREAK / CONTINUE / RETURN. */
type Outcome = Signal | undefined;
/**
 * A compiled statement. One outside ACCUM and POST-ACCUM answers a promise of its outcome when
 * the run paused in it to let other requests in (Run.pause); clause statements never pause.
 */
type StmtFn = (f: Frame) => Outcome | Promise<Outcome>;
const enum Signal {
  Break = 1,
  Continue = 2,
  Return = 3,
}

interface C {
  fn: Fn;
  type?: TypeRef;
  /** The value is a vertex set (a list of gids). */
  vset?: boolean;
}

type Sym =
  | { k: 'var'; slot: number; type?: TypeRef }
  | { k: 'vset'; slot: number }
  | { k: 'alias'; slot: number }
  | { k: 'ealias'; slot: number; from: number }
  | { k: 'file'; slot: number };

const T = (name: string): TypeRef => ({ k: 'base', name });
const tInt = T('INT');
const tFloat = T('DOUBLE');
/** TigerGraph's FLOAT: 4 bytes, so each value of the type is rounded to the nearest float32. */
const tFloat32 = T('FLOAT');
const tStr = T('STRING');
const tBool = T('BOOL');
const tDt = T('DATETIME');
const isIntT = (t?: TypeRef) => t?.k === 'base' && (t.name === 'INT' || t.name === 'UINT');
const isStrT = (t?: TypeRef) => t?.k === 'base' && t.name === 'STRING';

/**
 * The type of arithmetic on two numbers: INT when both are whole; FLOAT when neither is wider
 * than FLOAT (INT / FLOAT is FLOAT in GSQL, computed in 4 bytes); DOUBLE otherwise.
 */
function arithmeticType(l?: TypeRef, r?: TypeRef): TypeRef {
  if (isIntT(l) && isIntT(r)) return tInt;
  if ((isFloat32(l) || isIntT(l)) && (isFloat32(r) || isIntT(r))) return tFloat32;
  return tFloat;
}

/** A numeric closure of type `type`: rounded to float32 when it is FLOAT. */
const typed = (fn: (f: Frame) => number, type: TypeRef): C =>
  isFloat32(type) ? { fn: (f) => Math.fround(fn(f)), type } : { fn, type };

/** A compiled query: call `run` with a frame made by `newFrame`. */
export interface CompiledQuery {
  def: QueryDef;
  graph: GraphDef;
  params: Param[];
  slots: number;
  /**
   * Makes the accumulators and binds the arguments, then runs the body: what it returned, or a
   * promise of it when the run paused (Run.allowPauses).
   */
  invoke(run: Run, args: unknown[]): unknown;
}

type PrintStmt = Extract<Stmt, { k: 'print' }>;

/** An ArrayAccum's element as an expression names it (see Compiler.arrayElement). */
interface ArrayElementRef {
  /** `@@a` or `@a`, as the clause analysis names accumulators. */
  name: string;
  index: number;
  /** The vertex, for a vertex-attached array. */
  gid?: (f: Frame) => number;
  at: (f: Frame) => number[];
  elem: AccType;
}

/** Where the accumulators of a query live. */
interface AccDecl {
  index: number;
  type: AccType;
  init?: Expr;
}

const mathFns: Record<string, (...a: number[]) => number> = {
  abs: Math.abs,
  sqrt: Math.sqrt,
  pow: Math.pow,
  log: Math.log,
  ln: Math.log,
  log10: Math.log10,
  log2: Math.log2,
  exp: Math.exp,
  floor: Math.floor,
  ceil: Math.ceil,
  round: Math.round,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  atan2: Math.atan2,
  trunc: Math.trunc,
  float_to_int: Math.trunc,
  sign: Math.sign,
};

/** Functions and methods whose answer depends on their arguments alone, and that change nothing. */
const PURE_CALLS = new Set(['getvid', 'to_string', 'to_int', 'str_to_int', 'to_float', 'to_double']);
const PURE_METHODS = new Set(['outdegree', 'size', 'contains']);

/**
 * Compiles a query's AST into closures once: names resolve to slots, types decide arithmetic
 * (INT / INT divides whole), edge-type names resolve to the view's adjacency arrays per run.
 */
export class Compiler {
  private slots = 0;
  private scope: Map<string, Sym>[] = [new Map()];
  private readonly gaccs = new Map<string, AccDecl>();
  private readonly vaccs = new Map<string, AccDecl>();
  private readonly primed = new Set<string>();
  private readonly tuples = new Map<string, { name: string; type: TypeRef }[]>();
  private readonly exceptions = new Map<string, number>();
  /** Accumulators whose `+=` waits for the end of the clause: the clause also reads them. */
  private deferred: Set<string> | null = null;
  /** Vertex accumulators the current clause only reads and `+=`s: held back in a second column. */
  private columnDeferred: Set<string> | null = null;
  private readonly gaccInits: { index: number; init: Fn }[] = [];
  private readonly vaccInits: { index: number; init: Fn }[] = [];

  constructor(
    private readonly catalog: Catalog,
    private readonly graph: GraphDef,
    private readonly def: QueryDef,
    /** Whether a name is a query that can be called, and its return type. */
    private readonly isQuery: (name: string) => boolean,
  ) {}

  /** How deep in ACCUM / POST-ACCUM clauses the statements being compiled are. */
  private clauseDepth = 0;

  compile(): CompiledQuery {
    const { def } = this;
    // The accumulators and tuples first: GSQL declares them before any other statement.
    findPrimes(def.body, this.primed);
    const paramSlots = def.params.map((p) => {
      const slot = this.slots++;
      this.declare(
        p.name,
        p.type.k === 'base' && p.type.name === 'VERTEX'
          ? { k: 'var', slot, type: p.type }
          : { k: 'var', slot, type: p.type },
      );
      return slot;
    });
    const body = this.block(def.body);
    const gaccs = [...this.gaccs.values()];
    const vaccs = [...this.vaccs.entries()];
    const gaccInits = this.gaccInits;
    const vaccInitOf = new Map(this.vaccInits.map(({ index, init }) => [index, init]));
    const primed = this.primed;
    const slots = () => this.slots;
    const heapCapacities = new Map<number, Fn>();
    for (const a of gaccs) if (a.type.name === 'HeapAccum') heapCapacities.set(a.index, this.expr(a.type.capacity).fn);
    const vertexHeapCapacities = new Map<number, Fn>();
    for (const [, a] of vaccs)
      if (a.type.name === 'HeapAccum') vertexHeapCapacities.set(a.index, this.expr(a.type.capacity).fn);
    const params = def.params;
    const defaults = params.map((p) => (p.default ? this.expr(p.default).fn : undefined));
    return {
      def,
      graph: this.graph,
      params,
      slots: this.slots,
      invoke: (run, args) => {
        const f: Frame = { vars: new Array(slots()), run, g: [], va: [] };
        params.forEach((p, i) => {
          const given = args[i];
          f.vars[paramSlots[i]!] = given !== undefined ? given : defaults[i] ? defaults[i]!(f) : defaultOf(p.type);
        });
        for (const a of gaccs) {
          const cap = heapCapacities.get(a.index);
          f.g[a.index] = accFactory(a.type, () => (cap ? Number(cap(f)) : 0))();
        }
        for (const { index, init } of gaccInits) f.g[index]!.set(init(f));
        for (const [name, a] of vaccs) {
          const cap = vertexHeapCapacities.get(a.index);
          const make = accFactory(a.type, () => (cap ? Number(cap(f)) : 0));
          const collection = !accValueType(a.type);
          const kind = vertexAccKind(a.type);
          const init = vaccInitOf.get(a.index);
          let made = make;
          let initial: { value: unknown } | undefined;
          if (init) {
            const value = init(f);
            if (kind === 'object')
              made = () => {
                const acc = make();
                acc.set(value);
                return acc;
              };
            else initial = { value };
          }
          const scratch = run.view.scratch;
          f.va[a.index] = new VertexAccs(name, kind, made, collection, primed.has(name), scratch, a.type, initial);
        }
        run.returned = undefined;
        const finish = () => {
          // What the run printed or returned holds values, never the accumulators themselves.
          for (const va of f.va) va.release();
          return run.returned;
        };
        const outcome = body(f);
        return outcome instanceof Promise ? outcome.then(finish) : finish();
      },
    };
  }

  // Scopes.

  private declare(name: string, sym: Sym): void {
    this.scope[this.scope.length - 1]!.set(name, sym);
  }

  private lookup(name: string): Sym | undefined {
    for (let i = this.scope.length - 1; i >= 0; i--) {
      const s = this.scope[i]!.get(name);
      if (s) return s;
    }
    return undefined;
  }

  private fail(msg: string, at: { line: number; column: number }): never {
    throw new QuerySemanticError(msg, at.line, at.column);
  }

  // Statements.

  private block(stmts: Stmt[]): StmtFn {
    const fns = stmts.map((s) => this.stmt(s)).filter((s): s is StmtFn => s !== undefined);
    if (fns.length === 1) return fns[0]!;
    if (this.pausing) return (f) => statementsFrom(f, fns, 0);
    return (f) => {
      for (let i = 0; i < fns.length; i++) {
        const s = fns[i]!(f) as Outcome;
        if (s !== undefined) return s;
      }
      return undefined;
    };
  }

  /** Whether statements compiled now may pause: all but those of ACCUM and POST-ACCUM clauses. */
  private get pausing(): boolean {
    return this.clauseDepth === 0;
  }

  private stmt(s: Stmt): StmtFn | undefined {
    switch (s.k) {
      case 'typedef':
        this.tuples.set(s.name, s.fields);
        return undefined;
      case 'accDecl': {
        for (const v of s.vars) {
          const map = v.global ? this.gaccs : this.vaccs;
          const key = v.global ? v.name : v.name;
          if (map.has(key)) this.fail(`The accumulator ${v.global ? '@@' : '@'}${v.name} is declared twice`, s);
          // An ArrayAccum's dimensions are its variable's: `@@a[3], @@b[2][2]` share only the element type.
          const type: AccType = s.type.name === 'ArrayAccum' ? { ...s.type, dims: v.dims ?? [] } : s.type;
          const decl: AccDecl = { index: map.size, type, init: v.init };
          map.set(key, decl);
          if (v.init)
            (v.global ? this.gaccInits : this.vaccInits).push({ index: decl.index, init: this.expr(v.init).fn });
        }
        return undefined;
      }
      case 'varDecl': {
        const fns: ((f: Frame) => void)[] = [];
        for (const v of s.vars) {
          const isVset = false;
          const slot = this.slots++;
          this.declare(v.name, isVset ? { k: 'vset', slot } : { k: 'var', slot, type: s.type });
          const init = v.init ? this.coerce(this.expr(v.init), s.type) : undefined;
          const dflt = defaultOf(s.type);
          const fresh = dflt instanceof Set || dflt instanceof Map || Array.isArray(dflt);
          fns.push((f) => {
            f.vars[slot] = init ? init(f) : fresh ? defaultOf(s.type) : dflt;
          });
        }
        return seq(fns);
      }
      case 'assign':
        return this.assign(s);
      case 'if': {
        const branches = s.branches.map((b) => ({ cond: this.expr(b.cond).fn, body: this.scoped(b.body) }));
        const elseBody = s.else ? this.scoped(s.else) : undefined;
        return (f) => {
          for (const b of branches) if (b.cond(f)) return b.body(f);
          return elseBody ? elseBody(f) : undefined;
        };
      }
      case 'case': {
        const subject = s.subject ? this.expr(s.subject).fn : undefined;
        const whens = s.whens.map((w) => ({ cond: this.expr(w.cond).fn, body: this.scoped(w.body) }));
        const elseBody = s.else ? this.scoped(s.else) : undefined;
        return (f) => {
          const subj = subject ? subject(f) : undefined;
          for (const w of whens) if (subject ? eq(subj, w.cond(f)) : w.cond(f)) return w.body(f);
          return elseBody ? elseBody(f) : undefined;
        };
      }
      case 'while': {
        const cond = this.expr(s.cond).fn;
        const limit = s.limit ? this.expr(s.limit).fn : undefined;
        const body = this.scoped(s.body);
        const pausing = this.pausing;
        return (f) => {
          const max = limit ? Number(limit(f)) : Infinity;
          let n = 0;
          const next = () => {
            if (!(n < max && cond(f))) return false;
            n++;
            f.run.tick();
            return true;
          };
          return loopSteps(f, next, body, pausing);
        };
      }
      case 'foreach':
        return this.foreach(s);
      case 'break':
        return () => Signal.Break;
      case 'continue':
        return () => Signal.Continue;
      case 'return': {
        const e = s.e ? this.expr(s.e) : undefined;
        return (f) => {
          f.run.returned = e ? (e.vset ? (e.fn(f) as number[]).map((g) => f.run.view.vertex(g)) : e.fn(f)) : null;
          return Signal.Return;
        };
      }
      case 'print':
        return s.toCsv ? this.printCsv(s, s.toCsv) : this.print(s);
      case 'expr': {
        const e = this.expr(s.e).fn;
        return (f) => {
          e(f);
          return undefined;
        };
      }
      case 'exception': {
        const code = s.code.k === 'lit' ? Number(s.code.v) : 40000;
        this.exceptions.set(s.name, code);
        return undefined;
      }
      case 'raise': {
        const code = this.exceptions.get(s.name);
        if (code === undefined) this.fail(`The exception ${s.name} is not declared`, s);
        const args = s.args.map((a) => this.expr(a).fn);
        return (f) => {
          const msg = args.map((a) => textOf(a(f))).join('');
          throw new QueryRuntimeError(`Runtime Error: ${code}: ${msg}`, { name: s.name, code });
        };
      }
      case 'try': {
        const body = this.scoped(s.body);
        const handlers = s.handlers.map((h) => ({ name: h.name, body: this.scoped(h.body) }));
        return (f) => {
          const handle = (err: unknown) => {
            if (!(err instanceof QueryRuntimeError) || !err.exception) throw err;
            const h = handlers.find((x) => x.name === undefined || x.name === err.exception!.name);
            if (!h) throw err;
            return h.body(f);
          };
          try {
            const outcome = body(f);
            // An exception raised after the body paused arrives as the promise's rejection.
            return outcome instanceof Promise ? outcome.catch(handle) : outcome;
          } catch (err) {
            return handle(err);
          }
        };
      }
      case 'file':
        return this.fileDecl(s);
      case 'delete':
        return this.deleteStmt(s.sel);
      case 'deleteAlias':
        return this.deleteEdgeAlias(s);
      case 'insert':
        return this.insert(s);
    }
  }

  private scoped(stmts: Stmt[]): StmtFn {
    this.scope.push(new Map());
    try {
      return this.block(stmts);
    } finally {
      this.scope.pop();
    }
  }

  private foreach(s: Extract<Stmt, { k: 'foreach' }>): StmtFn {
    this.scope.push(new Map());
    try {
      const slots = s.vars.map((name) => {
        const slot = this.slots++;
        this.declare(name, { k: 'var', slot });
        return slot;
      });
      if ('range' in s.iter) {
        const [a, b, step] = s.iter.range.map((e) => (e ? this.expr(e).fn : undefined));
        const slot = slots[0]!;
        this.setVarType(s.vars[0]!, tInt);
        const body = this.block(s.body);
        const pausing = this.pausing;
        return (f) => {
          const lo = Number(a!(f));
          const hi = Number(b!(f));
          const st = step ? Number(step(f)) : 1;
          if (st === 0) throw new QueryRuntimeError('A RANGE step cannot be 0.');
          let i = lo;
          const next = () => {
            if (!(st > 0 ? i <= hi : i >= hi)) return false;
            f.run.tick();
            f.vars[slot] = i;
            i += st;
            return true;
          };
          return loopSteps(f, next, body, pausing);
        };
      }
      const iter = this.expr(s.iter);
      if (iter.type?.k === 'coll') this.setVarType(s.vars[0]!, iter.type.elem);
      const body = this.block(s.body);
      const pausing = this.pausing;
      return (f) => {
        let coll = iter.fn(f);
        if (iter.vset) coll = (coll as number[]).map((g) => f.run.view.vertex(g));
        const items: unknown[] = coll instanceof Acc ? [...iterate(coll.value())] : [...iterate(coll)];
        let k = 0;
        const next = () => {
          if (k === items.length) return false;
          f.run.tick();
          const item = items[k++];
          if (slots.length > 1) {
            const parts = item instanceof Tuple ? Object.values(item.fields) : (item as unknown[]);
            slots.forEach((slot, i) => (f.vars[slot] = parts[i]));
          } else f.vars[slots[0]!] = item;
          return true;
        };
        return loopSteps(f, next, body, pausing);
      };
    } finally {
      this.scope.pop();
    }
  }

  private setVarType(name: string, type: TypeRef): void {
    const sym = this.lookup(name);
    if (sym?.k === 'var') sym.type = type;
  }

  private assign(s: Extract<Stmt, { k: 'assign' }>): StmtFn {
    const { target, op } = s;
    if (target.k === 'name') {
      let sym = this.lookup(target.name);
      const value = this.expr(s.value);
      if (!sym) {
        if (!value.vset && op === '=') this.fail(`The variable ${target.name} is not declared`, target);
        sym = { k: 'vset', slot: this.slots++ };
        this.scope[0]!.set(target.name, sym);
      }
      if (sym.k === 'alias' || sym.k === 'ealias' || sym.k === 'file')
        this.fail(`${target.name} cannot be assigned to`, target);
      const slot = sym.slot;
      if (sym.k === 'vset') {
        if (!value.vset) this.fail(`${target.name} is a vertex set: assign it a vertex set`, s.value);
        if (op === '=') return (f) => void (f.vars[slot] = value.fn(f));
        const combine = op === '+=' ? union : minus;
        return (f) => void (f.vars[slot] = combine(f.vars[slot] as number[], value.fn(f) as number[]));
      }
      const fn = this.coerce(value, sym.type);
      if (op === '=') return (f) => void (f.vars[slot] = fn(f));
      const isNum = !sym.type || sym.type.k === 'base';
      return (f) => {
        const cur = f.vars[slot];
        const v = fn(f);
        if (isNum) f.vars[slot] = op === '+=' ? plus(cur, v) : (cur as number) - (v as number);
        else if (cur instanceof Set)
          for (const x of iterate(v)) {
            if (op === '+=') cur.add(x);
            else cur.delete(x);
          }
        else if (Array.isArray(cur)) {
          // `l += l` adds the elements it had: walking the list while it grows would not end.
          const added = v === cur ? [...cur] : iterate(v);
          for (const x of added) {
            copying(1);
            cur.push(x);
          }
        }
        return undefined;
      };
    }
    const value = this.expr(s.value).fn;
    if (target.k === 'gacc') {
      const a = this.gaccs.get(target.name) ?? this.fail(`The accumulator @@${target.name} is not declared`, target);
      const index = a.index;
      if (op === '=') return (f) => void f.g[index]!.set(value(f));
      if (op === '-=')
        return (f) => void (f.g[index] as unknown as { remove: (x: unknown) => void }).remove?.(value(f));
      if (this.deferred?.has(`@@${target.name}`)) return (f) => void f.run.pending.push(index, -1, value(f));
      return (f) => void f.g[index]!.add(value(f));
    }
    if (target.k === 'vacc') {
      const a = this.vaccs.get(target.name) ?? this.fail(`The accumulator @${target.name} is not declared`, target);
      const index = a.index;
      const gid = this.gidOf(target.obj);
      if (op === '=') return (f) => void f.va[index]!.set(gid(f), value(f));
      if (op === '-=')
        return (f) => void (f.va[index]!.acc(gid(f)) as unknown as { remove: (x: unknown) => void }).remove?.(value(f));
      if (this.deferred?.has(`@${target.name}`) && this.columnDeferred?.has(target.name))
        return (f) => {
          const va = f.va[index]!;
          if (va.columnar) va.addNext(gid(f), value(f));
          else f.run.pending.push(index, gid(f), value(f));
          return undefined;
        };
      if (this.deferred?.has(`@${target.name}`))
        return (f) => {
          const g = gid(f);
          f.run.pending.push(index, g, value(f));
          return undefined;
        };
      return (f) => void f.va[index]!.add(gid(f), value(f));
    }
    if (target.k === 'attr') {
      const obj = target.obj.k === 'name' ? this.lookup(target.obj.name) : undefined;
      if (obj?.k === 'ealias') {
        const slot = obj.slot;
        const name = target.name;
        return (f) => {
          const eid = f.vars[slot] as number;
          const col = f.run.view.edgeAttrs.get(name);
          if (!col) throw new QueryRuntimeError(`The edge has no attribute ${name}.`);
          const v = value(f);
          col[eid] = v;
          let w = f.run.writes.edgeAttrs.get(eid);
          if (!w) f.run.writes.edgeAttrs.set(eid, (w = new Map()));
          w.set(name, v);
          return undefined;
        };
      }
      const gid = this.gidOf(target.obj);
      const name = target.name;
      return (f) => void setVertexAttr(f, gid(f), name, value(f));
    }
    if (target.k === 'index') {
      const element = this.arrayElement(target);
      if (element) return this.assignElement(element, op, value);
      const obj = this.expr(target.obj).fn;
      const idx = this.expr(target.idx).fn;
      return (f) => {
        const o = obj(f);
        const i = idx(f);
        if (Array.isArray(o)) o[i as number] = value(f);
        else if (o instanceof Map) o.set(i, value(f));
        return undefined;
      };
    }
    return this.fail('This cannot be assigned to', target);
  }

  /**
   * An accumulator printed as itself (`PRINT @@a`, `S[S.@a]`) prints as the accumulator does, which
   * is not always as its value reads in an expression: a bitwise accumulator shows its bits.
   * Called after `expr` of the same expression, which refuses an accumulator not declared.
   */
  private accJson(e: Expr): Fn | undefined {
    if (e.k === 'gacc') {
      const index = this.gaccs.get(e.name)!.index;
      return (f) => f.g[index]!.json();
    }
    if (e.k === 'vacc' && !e.prime) {
      const index = this.vaccs.get(e.name)!.index;
      const gid = this.gidOf(e.obj);
      return (f) => f.va[index]!.json(gid(f));
    }
    return undefined;
  }

  /**
   * `@@a[i][j]` or `v.@a[i]` of an ArrayAccum: the accumulator's place and the element's indices.
   * Undefined for any other index (a list's, a map's).
   */
  private arrayElement(e: Expr): ArrayElementRef | undefined {
    const at: Expr[] = [];
    let root = e;
    while (root.k === 'index') {
      at.unshift(root.idx);
      root = root.obj;
    }
    if (at.length === 0 || (root.k !== 'gacc' && root.k !== 'vacc')) return undefined;
    const global = root.k === 'gacc';
    const decl = (global ? this.gaccs : this.vaccs).get(root.name);
    if (decl?.type.name !== 'ArrayAccum') return undefined;
    const dims = decl.type.dims.length;
    if (at.length !== dims)
      this.fail(
        `The ArrayAccum ${global ? '@@' : '@'}${root.name} has ${dims} dimension(s): give one index each`,
        root,
      );
    const indices = at.map((x) => this.expr(x).fn);
    return {
      name: `${global ? '@@' : '@'}${root.name}`,
      index: decl.index,
      gid: root.k === 'vacc' ? this.gidOf(root.obj) : undefined,
      at: (f) => indices.map((i) => i(f) as number),
      elem: decl.type.elem,
    };
  }

  /** The accumulator an element belongs to. */
  private static arrayOf(ref: ArrayElementRef, f: Frame): ArrayAcc {
    return (ref.gid ? f.va[ref.index]!.acc(ref.gid(f)) : f.g[ref.index]!) as ArrayAcc;
  }

  /**
   * `=` and `+=` of an element go through its array (`ArrayElement`): a `+=` the clause must hold
   * back waits in the same queue as a whole accumulator's, and a vertex's array keeps `@a'`.
   */
  private assignElement(ref: ArrayElementRef, op: '=' | '+=' | '-=', value: Fn): StmtFn {
    const { index, gid, at } = ref;
    if (op === '-=')
      return (f) =>
        void (Compiler.arrayOf(ref, f).element(at(f)) as unknown as { remove?: (x: unknown) => void }).remove?.(
          value(f),
        );
    const element = (f: Frame) => new ArrayElement(at(f), value(f));
    if (op === '=')
      return gid ? (f) => void f.va[index]!.set(gid(f), element(f)) : (f) => void f.g[index]!.set(element(f));
    const held = this.deferred?.has(ref.name);
    if (gid)
      return held
        ? (f) => void f.run.pending.push(index, gid(f), element(f))
        : (f) => void f.va[index]!.add(gid(f), element(f));
    return held ? (f) => void f.run.pending.push(index, -1, element(f)) : (f) => void f.g[index]!.add(element(f));
  }

  /** A conversion on assignment: INT variables drop a fraction, FLOAT ones keep 4 bytes, DATETIME takes text. */
  private coerce(c: C, type?: TypeRef): Fn {
    const fn = c.fn;
    if (c.vset) return (f) => (fn(f) as number[]).map((g) => f.run.view.vertex(g));
    if (isIntT(type) && !isIntT(c.type)) return (f) => Math.trunc(fn(f) as number);
    if (isFloat32(type) && !isFloat32(c.type)) return (f) => Math.fround(fn(f) as number);
    if (isDatetime(type) && isStrT(c.type)) return (f) => toEpoch(fn(f));
    if (type?.k === 'coll' && type.name === 'SET')
      return (f) => {
        const v = fn(f);
        return v instanceof Set ? new Set(v) : new Set(iterate(v));
      };
    if (type?.k === 'coll')
      return (f) => {
        const v = fn(f);
        return [...iterate(v instanceof Acc ? v.value() : v)];
      };
    return fn;
  }

  /**
   * PRINT: one object of the run's results. Its WHERE, when it names a printed vertex set, keeps
   * the vertices of that set it holds for; any other WHERE is asked once, and when false the
   * statement prints nothing.
   */
  private print(s: PrintStmt): StmtFn {
    const { whereOnce, perVertex } = this.printWhere(s);
    const parts = s.items.map((item) => {
      const c = this.expr(item.e);
      if (!c.vset) {
        if (item.projection) this.fail('Only a vertex set can be printed with [ … ]', item.e);
        const json = this.accJson(item.e);
        if (json) return { key: item.key, fn: json };
        return { key: item.key, fn: (f: Frame) => jsonOf(c.fn(f), c.type) };
      }
      const name = item.e.k === 'name' ? item.e.name : '';
      const where = perVertex.has(name) ? s.where : undefined;
      const { slot, keep, values } = this.eachVertex(name, where, () =>
        item.projection?.map((p) => ({ key: p.key, c: this.expr(p.e), json: this.accJson(p.e) })),
      );
      return {
        key: item.key,
        fn: (f: Frame) => {
          const out: Record<string, unknown>[] = [];
          for (const gid of c.fn(f) as number[]) {
            f.vars[slot] = gid;
            if (keep && !keep(f)) continue;
            if (!values) {
              out.push(this.vertexJson(f, gid));
              continue;
            }
            const attributes: Record<string, unknown> = {};
            for (const p of values)
              attributes[p.key] = p.json ? p.json(f) : jsonOf(p.c.vset ? vsetValue(f, p.c.fn(f)) : p.c.fn(f), p.c.type);
            out.push(vertexHead(f.run.view, gid, attributes));
          }
          return out;
        },
      };
    });
    return (f) => {
      if (whereOnce && !whereOnce(f)) return undefined;
      const out: Record<string, unknown> = {};
      for (const p of parts) out[p.key] = p.fn(f);
      const run = f.run;
      run.printedBytes += JSON.stringify(out).length;
      if (run.printedBytes > run.outputLimit)
        throw new QueryRuntimeError(
          `The query's output is larger than the limit of ${run.outputLimit} bytes; ` +
            'print less (a LIMIT, a projection).',
        );
      run.results.push(out);
      return undefined;
    };
  }

  /**
   * `PRINT a, b TO_CSV file`: one line of the FILE, its fields separated by commas (see csvField).
   * An expression of a vertex set, `S.name` or `S.@score`, is one value per vertex, each on a line
   * of its own, as TigerGraph writes them; a whole vertex set is refused.
   */
  private printCsv(s: PrintStmt, target: Expr): StmtFn {
    const { whereOnce, perVertex } = this.printWhere(s);
    const sym = target.k === 'name' ? this.lookup(target.name) : undefined;
    const path = sym?.k === 'file' ? undefined : this.expr(target).fn;
    const fileSlot = sym?.k === 'file' ? sym.slot : -1;
    const fields = s.items.map((item): ((f: Frame) => string) => {
      const whole = () =>
        this.fail('A vertex set cannot be printed TO_CSV: print an expression of its vertices, as S.name', item.e);
      if (item.projection) whole();
      const names = new Set<string>();
      walkExpr(item.e, (x) => x.k === 'name' && names.add(x.name));
      const vset = [...names].find((n) => this.lookup(n)?.k === 'vset');
      if (!vset) {
        const c = this.expr(item.e);
        if (c.vset) whole();
        return (f) => csvField(c.fn(f));
      }
      if (item.e.k === 'name') whole();
      const set = this.expr({ line: item.e.line, column: item.e.column, k: 'name', name: vset }).fn;
      const where = perVertex.has(vset) ? s.where : undefined;
      const { slot, keep, values: value } = this.eachVertex(vset, where, () => this.expr(item.e).fn);
      return (f) => {
        const lines: string[] = [];
        for (const gid of set(f) as number[]) {
          f.vars[slot] = gid;
          if (!keep || keep(f)) lines.push(csvField(value(f)));
        }
        return lines.join('\n');
      };
    });
    return (f) => {
      if (whereOnce && !whereOnce(f)) return undefined;
      const files = filesOf(f);
      const file = path ? files.openOnce(textOf(path(f))) : (f.vars[fileSlot] as { path: string | undefined }).path;
      if (file === undefined) throw new QueryRuntimeError('PRINT … TO_CSV to a FILE declared with an empty path.');
      const line = fields.map((field) => field(f)).join(',');
      if (line !== '') files.append(file, line);
      return undefined;
    };
  }

  /** A PRINT's WHERE: asked once, or for each vertex of the printed vertex sets it names. */
  private printWhere(s: PrintStmt): { whereOnce?: Fn; perVertex: Set<string> } {
    const perVertex = new Set<string>();
    if (!s.where) return { perVertex };
    const names = new Set<string>();
    walkExpr(s.where, (x) => x.k === 'name' && names.add(x.name));
    for (const n of names) if (this.lookup(n)?.k === 'vset') perVertex.add(n);
    return { whereOnce: perVertex.size === 0 ? this.expr(s.where).fn : undefined, perVertex };
  }

  /**
   * What a PRINT works out for each vertex of the set `name`: while `values` (and the WHERE, when
   * it names the set) are compiled, the name stands for one vertex, held in `slot`.
   */
  private eachVertex<V>(
    name: string,
    where: Expr | undefined,
    values: () => V,
  ): { slot: number; keep?: Fn; values: V } {
    const slot = this.slots++;
    this.scope.push(new Map([[name, { k: 'alias', slot } as Sym]]));
    try {
      return { slot, keep: where ? this.expr(where).fn : undefined, values: values() };
    } finally {
      this.scope.pop();
    }
  }

  /** A vertex as PRINT shows it: id, type, every attribute, and every vertex-attached accumulator. */
  private vertexJson(f: Frame, gid: number): Record<string, unknown> {
    const view = f.run.view;
    const type = view.vertexTypes[view.typeOf[gid]!]!;
    const attributes: Record<string, unknown> = {};
    for (const a of type.attributes) {
      const v = view.attrs.get(a.name)![gid];
      attributes[a.name] = a.type === 'DATETIME' ? formatDatetime((v as number) ?? 0) : (v ?? defaultOf(T(a.type)));
    }
    for (const va of f.va) attributes[`@${va.name}`] = va.json(gid);
    return vertexHead(view, gid, attributes);
  }

  // FILE objects write inside the workspace's folder for files, nowhere else.

  private fileDecl(s: Extract<Stmt, { k: 'file' }>): StmtFn {
    const slot = this.slots++;
    this.declare(s.name, { k: 'file', slot });
    const p = this.expr(s.path).fn;
    return (f) => {
      const asked = String(p(f));
      // An empty path opens nothing (queries guard their println with `IF file_path != ""`).
      if (asked === '') {
        f.vars[slot] = { path: undefined };
        return undefined;
      }
      f.vars[slot] = { path: filesOf(f).open(asked) };
      return undefined;
    };
  }

  // Writes.

  private deleteStmt(sel: Select): StmtFn {
    const run = this.select(sel);
    return (f) => {
      const gids = run(f);
      for (const gid of gids) deleteLater(f, gid);
      return undefined;
    };
  }

  private deleteEdgeAlias(s: Extract<Stmt, { k: 'deleteAlias' }>): StmtFn {
    const sym = this.lookup(s.alias);
    if (sym?.k === 'alias') return this.deleteStmtFor(sym.slot);
    if (sym?.k !== 'ealias') this.fail(`${s.alias} is not a vertex or edge alias`, s);
    const slot = sym.slot;
    return (f) => {
      const view = f.run.view;
      const eid = f.vars[slot] as number;
      const et = view.edgeTypes[view.edgeType[eid]!]!;
      const from = view.edgeFrom[eid]!;
      const to = view.edgeTo[eid]!;
      const ft = view.vertexTypes[view.typeOf[from]!]!.id;
      const tt = view.vertexTypes[view.typeOf[to]!]!.id;
      const [fid, tid] = [view.ids[from]!, view.ids[to]!];
      f.run.writes.structural.push((store) => {
        const del = store.db.prepare(
          'DELETE FROM edges WHERE type_id = ? AND from_type = ? AND from_id = ? AND to_type = ? AND to_id = ?',
        );
        del.run(et.id, ft, fid, tt, tid);
        if (!et.directed) del.run(et.id, tt, tid, ft, fid);
        const end = (gid: number, id: string) => ({ type: view.vertexTypes[view.typeOf[gid]!]!, id });
        return { vertices: [], edges: [{ view: { type: et }, from: end(from, fid), to: end(to, tid) }] };
      });
      return undefined;
    };
  }

  private deleteStmtFor(slot: number): StmtFn {
    return (f) => {
      deleteLater(f, f.vars[slot] as number);
      return undefined;
    };
  }

  /**
   * `INSERT INTO T [(names)] VALUES (…)`: written when the run commits, through the REST++ upsert
   * plan, so that values, ids and the edge type's vertex pairs are checked as they are there.
   */
  private insert(s: Extract<Stmt, { k: 'insert' }>): StmtFn {
    const vt = this.catalog.vertexTypeIn(this.graph, s.type);
    const et = this.catalog.edgeTypeIn(this.graph, s.type);
    if (!vt && !et) this.fail(`${s.type} is not a vertex or edge type of graph ${this.graph.name}`, s);
    const ends = vt ? ['PRIMARY_ID'] : ['FROM', 'TO'];
    const own = vt ? vt.attributes.filter((a) => !a.isPrimaryKey) : et!.attributes;
    // What each value is: an end (by its index in `ends`) or an attribute (by name).
    const slots: ({ end: number } | { attr: string })[] = s.names
      ? s.names.map((n) => {
          const end = ends.indexOf(n.toUpperCase());
          if (end >= 0 || (vt && n === vt.primaryId.name)) return { end: Math.max(end, 0) };
          if (!own.some((a) => a.name === n)) this.fail(`${n} is not an attribute of ${s.type}`, s);
          return { attr: n };
        })
      : s.values.map((_, i) => (i < ends.length ? { end: i } : { attr: own[i - ends.length]?.name ?? '' }));
    if (s.values.length !== slots.length || slots.some((x) => 'attr' in x && x.attr === ''))
      this.fail(`INSERT INTO ${s.type} gives ${s.values.length} values for ${slots.length} places`, s);
    const values = s.values.map((v) => this.expr(v).fn);
    const graph = this.graph;
    return (f) => {
      const endValues: unknown[] = [];
      const attrs: Record<string, { value: unknown }> = {};
      values.forEach((v, i) => {
        const slot = slots[i]!;
        const x = v(f);
        if ('end' in slot) endValues[slot.end] = x;
        else {
          const a = own.find((o) => o.name === slot.attr)!;
          attrs[slot.attr] = { value: x instanceof Set ? [...x] : storedValue(a.type, x) };
        }
      });
      let payload: unknown;
      if (vt) payload = { vertices: { [vt.name]: { [textOf(endValues[0])]: attrs } } };
      else {
        const [from, to] = endValues;
        if (!(from instanceof Vertex) || !(to instanceof Vertex))
          throw new QueryRuntimeError(`INSERT INTO ${s.type} needs its two end vertices first.`);
        payload = { edges: { [from.type]: { [from.id]: { [s.type]: { [to.type]: { [to.id]: attrs } } } } } };
      }
      f.run.writes.structural.push((store) => {
        try {
          const plan = planUpsert(store, graph, payload);
          writeUpsert(store, plan);
          return plan;
        } catch (err) {
          if (err instanceof DataPlaneError)
            throw new DataPlaneError('queryRuntime', `INSERT INTO ${s.type}: ${err.message}`);
          throw err;
        }
      });
      return undefined;
    };
  }

  // SELECT.

  private select(sel: Select): (f: Frame) => number[] {
    this.scope.push(new Map());
    try {
      return this.selectIn(sel);
    } finally {
      this.scope.pop();
    }
  }

  private selectIn(sel: Select): (f: Frame) => number[] {
    const { catalog, graph } = this;
    // The source: a vertex set variable, or a vertex type.
    const srcSym = this.lookup(sel.source);
    let source: (f: Frame) => ArrayLike<number>;
    if (srcSym?.k === 'vset') {
      const slot = srcSym.slot;
      source = (f) => (f.vars[slot] as number[]) ?? [];
    } else if (catalog.vertexTypeIn(graph, sel.source)) {
      const name = sel.source;
      // Read, never changed: the view's own list of the type's vertices.
      source = (f) => f.run.view.byType[f.run.view.vtIndex.get(name)!]!;
    } else if (sel.source === '_' || sel.source.toUpperCase() === 'ANY') {
      source = (f) => this.allVertices(f);
    } else return this.fail(`The vertex set or type ${sel.source} does not exist`, sel);
    const sSlot = this.slots++;
    const sAlias = sel.sourceAlias ?? sel.source;
    this.declare(sAlias, { k: 'alias', slot: sSlot });
    if (sel.hops.length > 1 || sel.hops[0]?.repeat || sel.sample) return this.pathSelect(sel, source, sSlot);
    const hop = sel.hops[0];
    let tSlot = -1;
    let eSlot = -1;
    let edges: ((view: GraphView, f: Frame) => Adjacency[]) | undefined;
    let targetMask: ((view: GraphView, f: Frame) => Uint8Array | null) | undefined;
    if (hop) {
      edges = this.edgeResolver(hop, sel);
      tSlot = this.slots++;
      if (hop.targetAlias) this.declare(hop.targetAlias, { k: 'alias', slot: tSlot });
      if (hop.targetTypes && hop.targetTypes.length === 1 && !hop.targetAlias)
        this.declare(hop.targetTypes[0]!, { k: 'alias', slot: tSlot });
      eSlot = this.slots++;
      if (hop.edgeAlias) this.declare(hop.edgeAlias, { k: 'ealias', slot: eSlot, from: sSlot });
      targetMask = this.targetMask(hop, sel);
    }
    const outSym = this.lookup(sel.out);
    if (!outSym || outSym.k !== 'alias')
      this.fail(`The SELECT output ${sel.out} is not a vertex alias of its FROM clause`, sel);
    const outIsTarget = outSym.slot === tSlot;

    const { twoPhase, where, deferredInAccum, accum } = this.matchClauses(sel);
    // Without a WHERE there are no two phases either.
    const fromSource = hop && !where ? this.addsFromSource(sel.accum, tSlot, deferredInAccum) : undefined;
    const end = this.selectEnd(sel, [
      { alias: sAlias, slot: sSlot },
      ...(hop?.targetAlias ? [{ alias: hop.targetAlias, slot: tSlot }] : []),
    ]);

    return (f) => {
      const run = f.run;
      const view = run.view;
      const vars = f.vars;
      for (const va of f.va) va.clearPrevious();
      const src = source(f);
      const scratch = view.scratch;
      const sSeen = scratch.uint8();
      const tSeen = hop ? scratch.uint8() : sSeen;
      const sList: number[] = [];
      const tList: number[] = [];
      const matches: number[] = [];
      if (!hop) {
        for (let i = 0; i < src.length; i++) {
          const s = src[i]!;
          run.tick();
          vars[sSlot] = s;
          if (where && !where(f)) continue;
          if (twoPhase) matches.push(s, -1, -1);
          else if (accum) accum(f);
          if (!sSeen[s]) {
            sSeen[s] = 1;
            sList.push(s);
          }
        }
      } else {
        const adjs = edges!(view, f);
        const targets = targetMask ? targetMask(view, f) : null;
        // Checked per edge only where some neighbour may be of a type the hop leaves out.
        const masks = adjs.map((adj) => (targets && !view.neighboursWithin(adj, targets) ? targets : null));
        const typeOf = view.typeOf;
        if (fromSource) walkAddingFromSource(f, src, adjs, masks, fromSource, sSlot, { sSeen, sList, tSeen, tList });
        else
          for (let i = 0; i < src.length; i++) {
            const s = src[i]!;
            vars[sSlot] = s;
            for (let a = 0; a < adjs.length; a++) {
              const { off, nbr, eid } = adjs[a]!;
              const mask = masks[a]!;
              const end = off[s + 1]!;
              for (let k = off[s]!; k < end; k++) {
                const t = nbr[k]!;
                if (mask && !mask[typeOf[t]!]) continue;
                run.tick();
                vars[tSlot] = t;
                vars[eSlot] = eid[k]!;
                if (where) {
                  if (!where(f)) continue;
                  // WHERE may have bound other slots: rebind the match's own.
                  vars[sSlot] = s;
                }
                if (twoPhase) matches.push(s, t, eid[k]!);
                else if (accum) accum(f);
                if (!sSeen[s]) {
                  sSeen[s] = 1;
                  sList.push(s);
                }
                if (!tSeen[t]) {
                  tSeen[t] = 1;
                  tList.push(t);
                }
              }
            }
          }
      }
      if (twoPhase && accum)
        for (let i = 0; i < matches.length; i += 3) {
          run.tick();
          vars[sSlot] = matches[i]!;
          if (hop) {
            vars[tSlot] = matches[i + 1]!;
            vars[eSlot] = matches[i + 2]!;
          }
          accum(f);
        }
      flushPending(f);
      // The marks are 1 exactly at the listed vertices: put back to 0 there, the arrays go back.
      for (let i = 0; i < sList.length; i++) sSeen[sList[i]!] = 0;
      scratch.giveUint8(sSeen, true);
      if (hop) {
        for (let i = 0; i < tList.length; i++) tSeen[tList[i]!] = 0;
        scratch.giveUint8(tSeen, true);
      }
      return finishSelect(f, end, (slot) => (slot === tSlot ? tList : sList), outIsTarget ? tSlot : sSlot);
    };
  }

  /**
   * A SELECT's WHERE and ACCUM. When WHERE reads what ACCUM writes, the clause has two phases:
   * WHERE is asked of every match first, and ACCUM then runs over those kept. What ACCUM both
   * reads and writes (everything it writes, with two phases) is held back to the clause's end,
   * so each match reads the values from before the clause.
   */
  private matchClauses(sel: Select) {
    const written = new Set<string>();
    const readInAccum = new Set<string>();
    collectAccums(sel.accum, written, readInAccum);
    const readInWhere = new Set<string>();
    if (sel.where) collectReads(sel.where, readInWhere);
    const twoPhase = [...readInWhere].some((n) => written.has(n));
    const where = sel.where ? this.expr(sel.where).fn : undefined;
    const deferredInAccum = new Set([...written].filter((n) => readInAccum.has(n) || twoPhase));
    return { twoPhase, where, deferredInAccum, accum: this.clause(sel.accum, deferredInAccum) };
  }

  /**
   * What a SELECT runs after its matches: each POST-ACCUM over the vertices of the alias it
   * names (the last of `aliases` it reads; the source's when none), HAVING, ORDER BY, LIMIT.
   */
  private selectEnd(sel: Select, aliases: { alias: string; slot: number }[]): SelectEnd {
    const posts = sel.postAccum.map((stmts) => {
      const w = new Set<string>();
      const r = new Set<string>();
      collectAccums(stmts, w, r);
      const names = new Set<string>();
      for (const s of stmts) collectNames(s, names);
      let slot = aliases[0]!.slot;
      for (const a of aliases) if (names.has(a.alias)) slot = a.slot;
      return { slot, fn: this.clause(stmts, new Set([...w].filter((n) => r.has(n)))) };
    });
    return {
      posts,
      having: sel.having ? this.expr(sel.having).fn : undefined,
      order: sel.orderBy.map((o) => ({ fn: this.expr(o.e).fn, desc: o.desc })),
      limit: sel.limit ? this.expr(sel.limit).fn : undefined,
    };
  }

  /**
   * A V2 path, `FROM S:s -(E1>:e1)- M:m -(E2>)- T:t`: every walk along the hops in turn that
   * uses no edge twice is a row of the match table; WHERE is asked of each row, ACCUM runs
   * once per row, and the SELECT's vertex set is the distinct vertices its alias took. A
   * repeated hop, `-(E>*1..3)-`, takes the shortest walks within its bounds (RepeatedHop).
   */
  private pathSelect(sel: Select, source: (f: Frame) => ArrayLike<number>, sSlot: number): (f: Frame) => number[] {
    const sAlias = sel.sourceAlias ?? sel.source;
    /** The path's vertex aliases; `at`: the source at 0, the target of hop i at i + 1. */
    const aliases = [{ alias: sAlias, slot: sSlot, at: 0 }];
    let before = sSlot;
    const hops = sel.hops.map((hop, i) => {
      const edges = this.edgeResolver(hop, sel);
      const vSlot = this.slots++;
      const eSlot = this.slots++;
      if (hop.targetAlias) {
        this.declare(hop.targetAlias, { k: 'alias', slot: vSlot });
        aliases.push({ alias: hop.targetAlias, slot: vSlot, at: i + 1 });
      }
      // An edge is walked from the vertex before it, whether or not that one has an alias.
      if (hop.edgeAlias) this.declare(hop.edgeAlias, { k: 'ealias', slot: eSlot, from: before });
      before = vSlot;
      return { edges, targets: this.targetMask(hop, sel), repeat: hop.repeat, vSlot, eSlot };
    });
    const outSym = this.lookup(sel.out);
    const outSlot = outSym?.k === 'alias' ? outSym.slot : -1;
    if (!aliases.some((a) => a.slot === outSlot))
      this.fail(`The SELECT output ${sel.out} is not a vertex alias of its FROM clause`, sel);
    const { twoPhase, where, accum } = this.matchClauses(sel);
    const end = this.selectEnd(sel, aliases);
    /** The slots a row binds, in the order of its path: v0, e1, v1, e2, v2, … */
    const rowSlots = [sSlot, ...hops.flatMap((h) => [h.eSlot, h.vSlot])];
    const sample = sel.sample && this.sampler(sel, sel.sample, sSlot, hops[0]!.vSlot);

    return (f) => {
      const { run, vars } = f;
      const view = run.view;
      for (const va of f.va) va.clearPrevious();
      const steps = hops.map((h) => ({ adjs: h.edges(view, f), targets: h.targets?.(view, f), repeat: h.repeat }));
      const seen = aliases.map(() => new Set<number>());
      const bind = (path: number[]) => {
        for (let i = 0; i < rowSlots.length; i++) vars[rowSlots[i]!] = path[i]!;
      };
      const take = (path: number[]) => {
        for (let a = 0; a < aliases.length; a++) seen[a]!.add(path[2 * aliases[a]!.at]!);
      };
      const tick = () => run.tick();
      let walk = (row: (path: number[]) => void) => walkPaths(source(f), steps, view, tick, row);
      if (sample) {
        // Sampled once, so that both walks of a two-phase match see the same rows.
        const kept = sample(f, walk);
        walk = (row) => {
          const path = [0, 0, 0];
          for (let i = 0; i < kept.length; i += 3) {
            path[0] = kept[i]!;
            path[1] = kept[i + 1]!;
            path[2] = kept[i + 2]!;
            row(path);
          }
        };
      }
      if (!twoPhase || !accum) {
        walk((path) => {
          bind(path);
          if (where) {
            if (!where(f)) return;
            // WHERE may have bound other slots: rebind the row's own.
            bind(path);
          }
          take(path);
          accum?.(f);
        });
      } else {
        // Every WHERE first, then ACCUM over the rows kept: the walk is made twice, in the same
        // order, and between the two a bit per row says which were kept (the rows themselves,
        // as many as the walk finds before the timeout, would take far more memory).
        const kept = new RowBits();
        walk((path) => {
          bind(path);
          kept.push(!!where!(f));
        });
        let row = 0;
        walk((path) => {
          if (!kept.has(row++)) return;
          bind(path);
          take(path);
          accum(f);
        });
      }
      flushPending(f);
      return finishSelect(f, end, (slot) => [...seen[aliases.findIndex((a) => a.slot === slot)]!], outSlot);
    };
  }

  /**
   * SAMPLE of a one-hop SELECT: its rows, grouped by source (EDGE) or by target (TARGET); of
   * each group whose vertex meets WHEN, as many rows as the size says are kept, drawn at random,
   * and every row of the other groups. The rows kept come back as `[s, e, t, …]`, in walk order.
   */
  private sampler(
    sel: Select,
    sample: NonNullable<Select['sample']>,
    sSlot: number,
    tSlot: number,
  ): (f: Frame, walk: (row: (path: number[]) => void) => void) => number[] {
    if (sel.hops.length !== 1) this.fail('SAMPLE applies to a SELECT of one hop', sel);
    const size = this.expr(sample.size).fn;
    const when = this.expr(sample.when).fn;
    const { percent } = sample;
    const at = sample.by === 'EDGE' ? 0 : 2;
    const slot = sample.by === 'EDGE' ? sSlot : tSlot;
    return (f, walk) => {
      const n = Number(size(f));
      if (!Number.isInteger(n) || n <= 0)
        throw new QueryRuntimeError(`SAMPLE takes a positive whole number, not ${n}.`);
      const rows: number[] = [];
      walk((path) => rows.push(path[0]!, path[1]!, path[2]!));
      const groups = new Map<number, number[]>();
      for (let r = 0; r < rows.length / 3; r++) {
        const v = rows[3 * r + at]!;
        let g = groups.get(v);
        if (!g) groups.set(v, (g = []));
        g.push(r);
      }
      const keep = new Uint8Array(rows.length / 3);
      for (const [v, g] of groups) {
        f.run.tickMany(g.length);
        f.vars[slot] = v;
        const k = when(f) ? Math.min(g.length, percent ? Math.round((g.length * n) / 100) : n) : g.length;
        // The first k of a partial shuffle: k rows drawn at random without repeats.
        for (let i = 0; i < k; i++) {
          const j = i + Math.floor(Math.random() * (g.length - i));
          [g[i], g[j]] = [g[j]!, g[i]!];
          keep[g[i]!] = 1;
        }
      }
      const kept: number[] = [];
      for (let r = 0; r < keep.length; r++) if (keep[r]) kept.push(rows[3 * r]!, rows[3 * r + 1]!, rows[3 * r + 2]!);
      return kept;
    };
  }

  /**
   * An ACCUM made only of `t.@a += <expression>` into numeric vertex accumulators of the hop's
   * target, each expression reading neither the target nor the edge and calling only pure
   * functions: the propagation step of most graph algorithms (`t.@label += s.@label`,
   * `t.@received += s.@score / s.outdegree()`). Such a value is the same for every edge of a
   * source, since the clause changes nothing it reads (an accumulator it both reads and adds
   * to is held back), so it is computed once per source instead of once per edge.
   * Undefined for any other ACCUM.
   */
  private addsFromSource(stmts: Stmt[], tSlot: number, deferred: Set<string>): SourceAdd[] | undefined {
    if (stmts.length === 0) return undefined;
    const columnDeferred = onlyAddedTo(stmts);
    const out: SourceAdd[] = [];
    for (const s of stmts) {
      if (s.k !== 'assign' || s.op !== '+=' || s.target.k !== 'vacc' || s.target.prime) return undefined;
      const obj = s.target.obj;
      const sym = obj.k === 'name' ? this.lookup(obj.name) : undefined;
      if (sym?.k !== 'alias' || sym.slot !== tSlot) return undefined;
      const a = this.vaccs.get(s.target.name);
      if (!a || vertexAccKind(a.type) === 'object' || !this.sourceOnly(s.value, tSlot)) return undefined;
      const name = s.target.name;
      const how = !deferred.has(`@${name}`) ? Adding.Now : columnDeferred.has(name) ? Adding.Next : Adding.Queued;
      out.push({ value: this.expr(s.value).fn, index: a.index, how });
    }
    return out;
  }

  /** Whether an expression reads nothing of a hop's target or edge, and calls only pure functions. */
  private sourceOnly(e: Expr, tSlot: number): boolean {
    let only = true;
    walkExpr(e, (x) => {
      if (x.k === 'name') {
        const sym = this.lookup(x.name);
        if ((sym?.k === 'alias' && sym.slot === tSlot) || sym?.k === 'ealias') only = false;
      } else if (x.k === 'call') {
        if (!(x.name.toLowerCase() in mathFns) && !PURE_CALLS.has(x.name.toLowerCase())) only = false;
      } else if (x.k === 'method') {
        if (!PURE_METHODS.has(x.name.toLowerCase())) only = false;
      } else if (x.k === 'select' || x.k === 'seed') only = false;
    });
    return only;
  }

  /** ACCUM / POST-ACCUM statements, with `+=` to the names in `deferred` applied at the clause's end. */
  private clause(stmts: Stmt[], deferred: Set<string>): ((f: Frame) => void) | undefined {
    if (stmts.length === 0) return undefined;
    const saved = this.deferred;
    const savedColumns = this.columnDeferred;
    this.deferred = deferred;
    this.columnDeferred = onlyAddedTo(stmts);
    this.clauseDepth++;
    try {
      // Compiled inside a clause, its statements never pause: they answer at once.
      return this.scoped(stmts) as (f: Frame) => void;
    } finally {
      this.clauseDepth--;
      this.deferred = saved;
      this.columnDeferred = savedColumns;
    }
  }

  private allVertices(f: Frame): number[] {
    const view = f.run.view;
    const out: number[] = [];
    for (const name of this.graph.vertexTypes) {
      const t = view.vtIndex.get(name);
      if (t !== undefined) for (const g of view.byType[t]!) out.push(g);
    }
    return out;
  }

  /** The vertex types a hop's target may be of, resolved against the view of each run; undefined for any. */
  private targetMask(hop: Hop, at: Select): ((view: GraphView, f: Frame) => Uint8Array) | undefined {
    const { catalog, graph } = this;
    if (!hop.targetTypes) return undefined;
    const names: string[] = [];
    const fromVars: Fn[] = [];
    for (const t of hop.targetTypes) {
      const sym = catalog.vertexTypeIn(graph, t) ? undefined : this.lookup(t);
      if (sym?.k === 'var') {
        const slot = sym.slot;
        fromVars.push((f) => f.vars[slot]);
      } else if (!catalog.vertexTypeIn(graph, t)) this.fail(`The vertex type ${t} is not in graph ${graph.name}`, at);
      else names.push(t);
    }
    return (view, f) => {
      const m = new Uint8Array(view.vertexTypes.length);
      for (const n of names) m[view.vtIndex.get(n)!] = 1;
      for (const read of fromVars)
        for (const n of iterate(read(f))) {
          const t = view.vtIndex.get(textOf(n));
          if (t === undefined) throw new QueryRuntimeError(`The vertex type ${textOf(n)} does not exist.`);
          m[t] = 1;
        }
      return m;
    };
  }

  /** The adjacency arrays a hop walks, resolved against the view of each run. */
  private edgeResolver(hop: Hop, at: Select): (view: GraphView, f: Frame) => Adjacency[] {
    const { catalog, graph } = this;
    const fixed: { name: string; reversed: boolean; dir: Hop['dir'] }[] = [];
    /** Parameters or variables holding edge type names (STRING or SET<STRING>), read at each run. */
    const fromVars: { read: Fn; dir: Hop['dir'] }[] = [];
    const names = hop.edgeTypes ?? graph.edgeTypes;
    names.forEach((name, i) => {
      const dir = hop.dirs?.[i] ?? hop.dir;
      const view = catalog.edgeViewIn(graph, name);
      const sym = view ? undefined : this.lookup(name);
      if (sym?.k === 'var') {
        const slot = sym.slot;
        fromVars.push({ read: (f) => f.vars[slot], dir });
        return;
      }
      if (!view) this.fail(`The edge type ${name} is not in graph ${graph.name}`, at);
      // V2 puts a direction only on a directed type: `U>` of an undirected one is an error.
      if (hop.dirs && dir !== 'any' && !view.type.directed)
        this.fail(`The edge type ${name} is undirected: name it without > or <`, at);
      fixed.push({ name: view.type.name, reversed: view.reversed, dir });
    });
    return (view, f) => {
      let picks = fixed;
      if (fromVars.length > 0) {
        picks = [...fixed];
        for (const { read, dir } of fromVars)
          for (const n of iterate(read(f))) {
            const ev = catalog.edgeViewIn(graph, textOf(n));
            if (!ev) throw new QueryRuntimeError(`The edge type ${textOf(n)} is not in graph ${graph.name}.`);
            picks.push({ name: ev.type.name, reversed: ev.reversed, dir });
          }
      }
      const out: Adjacency[] = [];
      for (const p of picks) {
        const et = view.etIndex.get(p.name)!;
        const directed = view.edgeTypes[et]!.directed;
        const forward = p.dir === 'in' ? p.reversed : !p.reversed;
        if (!directed) {
          out.push(view.out[et]!, view.in[et]!);
        } else {
          if (p.dir === 'any' && !hop.edgeTypes) {
            out.push(view.out[et]!);
            continue;
          }
          out.push(forward ? view.out[et]! : view.in[et]!);
        }
      }
      return out;
    };
  }

  // Expressions.

  private gidOf(e: Expr): (f: Frame) => number {
    if (e.k === 'name') {
      const sym = this.lookup(e.name);
      if (sym?.k === 'alias') {
        const slot = sym.slot;
        return (f) => f.vars[slot] as number;
      }
    }
    const c = this.expr(e).fn;
    return (f) => {
      const v = c(f);
      if (v instanceof Vertex) return v.gid;
      throw new QueryRuntimeError(`${textOf(v)} is not a vertex.`);
    };
  }

  expr(e: Expr): C {
    switch (e.k) {
      case 'lit': {
        const v = e.v;
        return {
          fn: () => v,
          type: typeof v === 'string' ? tStr : typeof v === 'boolean' ? tBool : e.int ? tInt : tFloat,
        };
      }
      case 'name':
        return this.nameExpr(e);
      case 'gacc': {
        const a = this.gaccs.get(e.name) ?? this.fail(`The accumulator @@${e.name} is not declared`, e);
        const index = a.index;
        const type = accValueType(a.type);
        return { fn: (f) => f.g[index]!.value(), type };
      }
      case 'vacc': {
        const a = this.vaccs.get(e.name) ?? this.fail(`The accumulator @${e.name} is not declared`, e);
        const index = a.index;
        const gid = this.gidOf(e.obj);
        const type = accValueType(a.type);
        if (e.prime) return { fn: (f) => f.va[index]!.previous(gid(f)), type };
        return { fn: (f) => f.va[index]!.get(gid(f)), type };
      }
      case 'attr':
        return this.attrExpr(e);
      case 'call':
        return this.call(e);
      case 'method':
        return this.method(e);
      case 'bin':
        return this.binary(e);
      case 'un': {
        const x = this.expr(e.e);
        if (e.op === '-') return { fn: (f) => -(x.fn(f) as number), type: x.type };
        return { fn: (f) => !x.fn(f), type: tBool };
      }
      case 'index': {
        const element = this.arrayElement(e);
        if (element)
          return {
            fn: (f) => Compiler.arrayOf(element, f).element(element.at(f)).value(),
            type: accValueType(element.elem),
          };
        const obj = this.expr(e.obj).fn;
        const idx = this.expr(e.idx).fn;
        return {
          fn: (f) => {
            const o = obj(f);
            const i = idx(f);
            if (Array.isArray(o)) return o[i as number];
            if (o instanceof Map) return o.get(i);
            if (o instanceof Acc) return o.method('get', [i]);
            throw new QueryRuntimeError('Only lists and maps can be indexed.');
          },
        };
      }
      case 'case': {
        const subject = e.subject ? this.expr(e.subject).fn : undefined;
        const whens = e.whens.map(([c, v]) => [this.expr(c).fn, this.expr(v)] as const);
        const elseE = e.else ? this.expr(e.else).fn : undefined;
        return {
          fn: (f) => {
            const subj = subject ? subject(f) : undefined;
            for (const [c, v] of whens) if (subject ? eq(subj, c(f)) : c(f)) return v.fn(f);
            return elseE ? elseE(f) : null;
          },
          type: whens[0]?.[1].type,
        };
      }
      case 'arrow': {
        const keys = e.keys.map((k) => this.expr(k).fn);
        const vals = e.vals.map((v) => this.expr(v).fn);
        return {
          fn: (f) =>
            new Arrow(
              keys.map((k) => k(f)),
              vals.map((v) => v(f)),
            ),
        };
      }
      case 'paren': {
        const items = e.items.map((i) => this.expr(i).fn);
        return { fn: (f) => items.map((i) => i(f)) };
      }
      case 'list': {
        const items = e.items.map((i) => this.expr(i));
        return {
          fn: (f) => items.map((i) => (i.vset ? vsetValue(f, i.fn(f)) : i.fn(f))),
          type: items[0]?.type ? { k: 'coll', name: 'LIST', elem: items[0].type } : undefined,
        };
      }
      case 'seed':
        return this.seed(e);
      case 'in': {
        const x = this.expr(e.e).fn;
        const list = this.expr(e.list).fn;
        const not = e.not;
        return {
          fn: (f) => {
            const v = x(f);
            let l = list(f);
            if (l instanceof Acc) l = l.value();
            let found = false;
            if (l instanceof Set) found = l.has(v) || [...l].some((y) => eq(y, v));
            else for (const y of iterate(l)) if (eq(y, v)) found = true;
            return found !== not;
          },
          type: tBool,
        };
      }
      case 'isnull': {
        const x = this.expr(e.e).fn;
        return { fn: (f) => (x(f) === null || x(f) === undefined) !== e.not, type: tBool };
      }
      case 'like': {
        const x = this.expr(e.e).fn;
        const pattern = this.expr(e.pattern).fn;
        const not = e.not;
        // A pattern is most often a literal: its matcher is made once, and again only when it changes.
        let made: { pattern: string; match: (s: string) => boolean } | undefined;
        return {
          fn: (f) => {
            const p = String(pattern(f));
            if (made?.pattern !== p) made = { pattern: p, match: likeMatcher(p) };
            return made.match(String(x(f))) !== not;
          },
          type: tBool,
        };
      }
      case 'select': {
        const run = this.select(e.sel);
        return { fn: run, vset: true };
      }
      case 'setop': {
        const l = this.expr(e.l);
        const r = this.expr(e.r);
        if (!l.vset || !r.vset) {
          // Sets of values (SetAccum, SET): the result is a new set, the operands unchanged.
          const op = e.op;
          const lf = l.fn;
          const rf = r.fn;
          return {
            fn: (f) => {
              const a = collectionOf(lf(f));
              const b = collectionOf(rf(f));
              if (op === 'UNION') {
                const out = new Set<unknown>(eachOf(a));
                const inA = new Members(a);
                for (const x of eachOf(b)) if (!inA.has(x)) out.add(x);
                return out;
              }
              const inB = new Members(b);
              const keep = op === 'INTERSECT';
              const out = new Set<unknown>();
              for (const x of eachOf(a)) if (inB.has(x) === keep) out.add(x);
              return out;
            },
            type: l.type,
          };
        }
        const op = e.op === 'UNION' ? union : e.op === 'INTERSECT' ? intersect : minus;
        return { fn: (f) => op(l.fn(f) as number[], r.fn(f) as number[]), vset: true };
      }
    }
  }

  private nameExpr(e: Extract<Expr, { k: 'name' }>): C {
    const sym = this.lookup(e.name);
    if (sym) {
      const slot = sym.slot;
      switch (sym.k) {
        case 'var':
          return { fn: (f) => f.vars[slot], type: sym.type };
        case 'vset':
          return { fn: (f) => f.vars[slot], vset: true };
        case 'alias':
          return { fn: (f) => f.run.view.vertex(f.vars[slot] as number), type: T('VERTEX') };
        case 'ealias':
          return { fn: (f) => new EdgeRef(f.vars[slot] as number, f.run.view, f.vars[sym.from] as number) };
        case 'file':
          return { fn: (f) => f.vars[slot] };
      }
    }
    const upper = e.name.toUpperCase();
    if (upper === 'NULL') return { fn: () => null };
    if (upper === 'GSQL_INT_MAX') return { fn: () => Number.MAX_SAFE_INTEGER, type: tInt };
    if (upper === 'GSQL_INT_MIN') return { fn: () => Number.MIN_SAFE_INTEGER, type: tInt };
    if (upper === 'GSQL_UINT_MAX') return { fn: () => Number.MAX_SAFE_INTEGER, type: tInt };
    if (upper === 'GSQL_FLOAT_MAX' || upper === 'GSQL_DOUBLE_MAX') return { fn: () => Number.MAX_VALUE, type: tFloat };
    if (upper === 'GSQL_FLOAT_MIN' || upper === 'GSQL_DOUBLE_MIN') return { fn: () => -Number.MAX_VALUE, type: tFloat };
    return this.fail(`The name ${e.name} is not declared`, e);
  }

  private attrExpr(e: Extract<Expr, { k: 'attr' }>): C {
    const name = e.name;
    const obj = e.obj.k === 'name' ? this.lookup(e.obj.name) : undefined;
    if (obj?.k === 'ealias') {
      const slot = obj.slot;
      const type = this.edgeAttrType(name);
      if (name === 'type' && !type)
        return { fn: (f) => f.run.view.edgeTypes[f.run.view.edgeType[f.vars[slot] as number]!]!.name, type: tStr };
      return {
        fn: (f) => {
          const col = f.run.view.edgeAttrs.get(name);
          if (!col) throw new QueryRuntimeError(`The edge has no attribute ${name}.`);
          return col[f.vars[slot] as number];
        },
        type,
      };
    }
    if (obj?.k === 'var' && obj.type?.k === 'tuple') {
      const slot = obj.slot;
      return { fn: (f) => (f.vars[slot] as Tuple | null)?.fields[name] };
    }
    const type = this.vertexAttrType(name);
    const gid = this.gidOf(e.obj);
    if (!type) {
      if (name === 'type') return { fn: (f) => f.run.view.vertex(gid(f)).type, type: tStr };
      if (name === 'id') return { fn: (f) => f.run.view.ids[gid(f)], type: tStr };
      // A tuple's field, read from whatever the expression holds.
      const o = this.expr(e.obj).fn;
      return {
        fn: (f) => {
          const v = o(f);
          if (v instanceof Tuple) return v.fields[name];
          throw new QueryRuntimeError(`The attribute ${name} does not exist.`);
        },
      };
    }
    return {
      fn: (f) => {
        const g = gid(f);
        const col = f.run.view.attrs.get(name);
        return col ? col[g] : undefined;
      },
      type,
    };
  }

  private vertexAttrType(name: string): TypeRef | undefined {
    for (const vt of this.graph.vertexTypes) {
      const a = this.catalog.vertexTypes.get(vt)?.attributes.find((x) => x.name === name);
      if (a) return T(a.type);
    }
    return undefined;
  }

  private edgeAttrType(name: string): TypeRef | undefined {
    for (const et of this.graph.edgeTypes) {
      const a = this.catalog.edgeTypes.get(et)?.attributes.find((x) => x.name === name);
      if (a) return T(a.type);
    }
    return undefined;
  }

  private seed(e: Extract<Expr, { k: 'seed' }>): C {
    const parts = e.items.map((item): ((f: Frame) => number[]) => {
      if (item.k === 'any') return (f) => this.allVertices(f);
      if (item.k === 'typeAll') {
        if (!this.catalog.vertexTypeIn(this.graph, item.type))
          this.fail(`The vertex type ${item.type} is not in graph ${this.graph.name}`, e);
        const name = item.type;
        return (f) => [...f.run.view.byType[f.run.view.vtIndex.get(name)!]!];
      }
      const c = this.expr(item.e);
      if (c.vset) return c.fn as (f: Frame) => number[];
      return (f) => {
        const out: number[] = [];
        const v = c.fn(f);
        for (const x of iterate(v instanceof Acc ? v.value() : v)) {
          if (x instanceof Vertex) out.push(x.gid);
          else if (typeof x === 'string') {
            // A vertex type's name, as the algorithm library passes them: all vertices of the type.
            if (!this.graph.vertexTypes.includes(x))
              throw new QueryRuntimeError(`The vertex type ${x} is not in graph ${this.graph.name}.`);
            for (const g of f.run.view.byType[f.run.view.vtIndex.get(x)!]!) out.push(g);
          } else if (x !== null && x !== undefined) throw new QueryRuntimeError(`${textOf(x)} is not a vertex.`);
        }
        return out;
      };
    });
    if (parts.length === 1) return { fn: parts[0]!, vset: true };
    return { fn: (f) => parts.reduce<number[]>((acc, p) => union(acc, p(f)), []), vset: true };
  }

  private binary(e: Extract<Expr, { k: 'bin' }>): C {
    const l = this.expr(e.l);
    const r = this.expr(e.r);
    const a = l.fn;
    const b = r.fn;
    const bothInt = isIntT(l.type) && isIntT(r.type);
    switch (e.op) {
      case 'OR':
        return { fn: (f) => !!a(f) || !!b(f), type: tBool };
      case 'AND':
        return { fn: (f) => !!a(f) && !!b(f), type: tBool };
      case '==':
        return { fn: (f) => eq(a(f), b(f)), type: tBool };
      case '!=':
        return { fn: (f) => !eq(a(f), b(f)), type: tBool };
      case '<':
        return { fn: (f) => (a(f) as number) < (b(f) as number), type: tBool };
      case '>':
        return { fn: (f) => (a(f) as number) > (b(f) as number), type: tBool };
      case '<=':
        return { fn: (f) => (a(f) as number) <= (b(f) as number), type: tBool };
      case '>=':
        return { fn: (f) => (a(f) as number) >= (b(f) as number), type: tBool };
      case '+': {
        if (isStrT(l.type) || isStrT(r.type)) return { fn: (f) => madeString(textOf(a(f)) + textOf(b(f))), type: tStr };
        if (l.type?.k === 'base' && r.type?.k === 'base')
          return typed((f) => plus(a(f), b(f)) as number, arithmeticType(l.type, r.type));
        return { fn: (f) => plus(a(f), b(f)), type: l.type ?? r.type };
      }
      case '-': {
        if (isDatetime(l.type) && isDatetime(r.type))
          return { fn: (f) => (a(f) as number) - (b(f) as number), type: tInt };
        if (isDatetime(l.type)) return { fn: (f) => (a(f) as number) - (b(f) as number), type: tDt };
        return typed((f) => (a(f) as number) - (b(f) as number), arithmeticType(l.type, r.type));
      }
      case '*':
        return typed((f) => (a(f) as number) * (b(f) as number), arithmeticType(l.type, r.type));
      case '/':
        if (bothInt)
          return {
            fn: (f) => {
              const d = b(f) as number;
              if (d === 0) throw new QueryRuntimeError('Division by zero.');
              return Math.trunc((a(f) as number) / d);
            },
            type: tInt,
          };
        return typed((f) => (a(f) as number) / (b(f) as number), arithmeticType(l.type, r.type));
      case '%':
        return typed((f) => (a(f) as number) % (b(f) as number), arithmeticType(l.type, r.type));
      case '|':
        return { fn: (f) => (a(f) as number) | (b(f) as number), type: tInt };
      case '&':
        return { fn: (f) => (a(f) as number) & (b(f) as number), type: tInt };
      case '<<':
        return { fn: (f) => (a(f) as number) * 2 ** (b(f) as number), type: tInt };
      case '>>':
        return { fn: (f) => Math.floor((a(f) as number) / 2 ** (b(f) as number)), type: tInt };
      default:
        return this.fail(`The operator ${e.op} is not supported`, e);
    }
  }

  private call(e: Extract<Expr, { k: 'call' }>): C {
    const lname = e.name.toLowerCase();
    const tuple = this.tuples.get(e.name);
    const args = e.args.map((a) => this.expr(a));
    const fns = args.map((a) => a.fn);
    if (tuple) {
      const tname = e.name;
      return {
        fn: (f) =>
          new Tuple(
            tname,
            Object.fromEntries(tuple.map((fld, i) => [fld.name, fns[i] ? fns[i]!(f) : defaultOf(fld.type)])),
          ),
        type: { k: 'tuple', name: tname },
      };
    }
    const m = mathFns[lname];
    if (m) {
      // One or two arguments are passed as they are: a call runs per vertex or edge, and the
      // general form makes an array and spreads it each time.
      const [a, b] = fns;
      const call =
        fns.length === 1
          ? (f: Frame) => m(Number(a!(f)))
          : fns.length === 2
            ? (f: Frame) => m(Number(a!(f)), Number(b!(f)))
            : (f: Frame) => m(...fns.map((x) => Number(x(f))));
      if (['floor', 'ceil', 'round', 'trunc', 'float_to_int', 'sign'].includes(lname)) return { fn: call, type: tInt };
      // abs keeps its argument's type; the others answer FLOAT, as GSQL's reference gives them.
      if (lname === 'abs')
        return typed(call, isIntT(args[0]?.type) || isFloat32(args[0]?.type) ? args[0]!.type! : tFloat);
      return typed(call, tFloat32);
    }
    switch (lname) {
      case 'to_string':
        return { fn: (f) => textOf(fns[0]!(f)), type: tStr };
      case 'to_int':
      case 'str_to_int':
        return { fn: (f) => Math.trunc(Number(fns[0]!(f))), type: tInt };
      case 'to_float':
      case 'to_double':
        return { fn: (f) => Number(fns[0]!(f)), type: tFloat };
      case 'lower':
        return { fn: (f) => textOf(fns[0]!(f)).toLowerCase(), type: tStr };
      case 'upper':
        return { fn: (f) => textOf(fns[0]!(f)).toUpperCase(), type: tStr };
      case 'trim':
        return { fn: (f) => textOf(fns[0]!(f)).trim(), type: tStr };
      case 'length':
        return { fn: (f) => textOf(fns[0]!(f)).length, type: tInt };
      case 'substr':
        return {
          fn: (f) => textOf(fns[0]!(f)).substr(Number(fns[1]!(f)), fns[2] ? Number(fns[2](f)) : undefined),
          type: tStr,
        };
      case 'now':
        return { fn: () => Math.floor(Date.now() / 1000), type: tDt };
      case 'to_datetime':
        return { fn: (f) => toEpoch(fns[0]!(f)), type: tDt };
      case 'epoch_to_datetime':
        return { fn: (f) => Number(fns[0]!(f)), type: tDt };
      case 'datetime_to_epoch':
        return { fn: (f) => Number(fns[0]!(f)), type: tInt };
      case 'datetime_diff':
        return { fn: (f) => Number(fns[0]!(f)) - Number(fns[1]!(f)), type: tInt };
      case 'datetime_add':
      case 'datetime_sub': {
        const sign = lname === 'datetime_add' ? 1 : -1;
        return { fn: (f) => Number(fns[0]!(f)) + sign * intervalSeconds(fns[1]!(f), fns[2]?.(f)), type: tDt };
      }
      case 'year':
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second': {
        const pick = {
          year: (d: Date) => d.getUTCFullYear(),
          month: (d: Date) => d.getUTCMonth() + 1,
          day: (d: Date) => d.getUTCDate(),
          hour: (d: Date) => d.getUTCHours(),
          minute: (d: Date) => d.getUTCMinutes(),
          second: (d: Date) => d.getUTCSeconds(),
        }[lname];
        return { fn: (f) => pick(new Date(Number(fns[0]!(f)) * 1000)), type: tInt };
      }
      case 'getvid':
        return { fn: (f) => (fns[0]!(f) as Vertex).gid, type: tInt };
      case 'to_vertex':
        return {
          fn: (f) => {
            const id = textOf(fns[0]!(f));
            const type = textOf(fns[1]!(f));
            const gid = f.run.view.find(type, id);
            if (gid < 0) throw new QueryRuntimeError(`The vertex ${type} ${id} does not exist.`);
            return f.run.view.vertex(gid);
          },
          type: T('VERTEX'),
        };
      case 'to_vertex_set':
        return {
          fn: (f) => {
            const type = textOf(fns[1]!(f));
            const out: number[] = [];
            for (const id of iterate(fns[0]!(f))) {
              const gid = f.run.view.find(type, textOf(id));
              if (gid >= 0) out.push(gid);
            }
            return out;
          },
          vset: true,
        };
      case 'count':
        return {
          fn: (f) => {
            const v = args[0]!.vset ? (fns[0]!(f) as number[]) : fns[0]!(f);
            return [...iterate(v instanceof Acc ? v.value() : v)].length;
          },
          type: tInt,
        };
      case 'coalesce':
        return {
          fn: (f) => fns.map((x) => x(f)).find((v) => v !== null && v !== undefined) ?? null,
          type: args[0]?.type,
        };
      case 'max':
        return {
          fn: (f) => Math.max(...fns.map((x) => Number(x(f)))),
          type: args.every((a) => isIntT(a.type)) ? tInt : tFloat,
        };
      case 'min':
        return {
          fn: (f) => Math.min(...fns.map((x) => Number(x(f)))),
          type: args.every((a) => isIntT(a.type)) ? tInt : tFloat,
        };
      case 'outdegree':
        break;
      default:
        break;
    }
    if (this.isQuery(e.name)) {
      const name = e.name;
      return {
        fn: (f) =>
          f.run.callQuery(
            name,
            args.map((a) => (a.vset ? vsetValue(f, a.fn(f)) : a.fn(f))),
            f.run,
          ),
      };
    }
    return this.fail(`The function ${e.name}() is not known`, e);
  }

  private method(e: Extract<Expr, { k: 'method' }>): C {
    const name = e.name;
    const lname = name.toLowerCase();
    const args = e.args.map((a) => this.expr(a).fn);
    // Methods of a vertex-attached or global accumulator act on the accumulator itself.
    if (e.obj.k === 'vacc' || e.obj.k === 'gacc') {
      const isV = e.obj.k === 'vacc';
      const a =
        (isV ? this.vaccs : this.gaccs).get(e.obj.name) ??
        this.fail(`The accumulator ${e.obj.name} is not declared`, e.obj);
      const index = a.index;
      const gid = isV ? this.gidOf((e.obj as { obj: Expr }).obj) : undefined;
      const intResult = ['size', 'contains', 'containskey'].includes(lname);
      return {
        fn: (f) => {
          const acc = gid ? f.va[index]!.acc(gid(f)) : f.g[index]!;
          return acc.method(
            name,
            args.map((x) => x(f)),
          );
        },
        type: lname === 'size' ? tInt : intResult ? tBool : undefined,
      };
    }
    const element = e.obj.k === 'index' ? this.arrayElement(e.obj) : undefined;
    if (element)
      return {
        fn: (f) =>
          Compiler.arrayOf(element, f)
            .element(element.at(f))
            .method(
              name,
              args.map((x) => x(f)),
            ),
        type: lname === 'size' ? tInt : lname === 'contains' ? tBool : undefined,
      };
    const objC = this.expr(e.obj);
    const obj = objC.fn;
    const objSym = e.obj.k === 'name' ? this.lookup(e.obj.name) : undefined;
    if (objSym?.k === 'file') {
      return {
        fn: (f) => {
          const file = obj(f) as { path: string | undefined };
          if (lname !== 'println') throw new QueryRuntimeError(`A FILE has no method ${name}().`);
          if (file.path === undefined) throw new QueryRuntimeError('println() on a FILE declared with an empty path.');
          filesOf(f).append(file.path, args.map((x) => csvField(x(f))).join(','));
          return null;
        },
      };
    }
    if (objC.vset) {
      if (lname === 'size') return { fn: (f) => (obj(f) as number[]).length, type: tInt };
      return this.fail(`A vertex set has no method ${name}()`, e);
    }
    switch (lname) {
      case 'outdegree': {
        // With literal edge names (or none), the degrees of all vertices are counted once per view.
        if (e.args.every((a) => a.k === 'lit' && typeof a.v === 'string')) {
          const names = e.args.length ? e.args.map((a) => String((a as { v: string }).v)) : this.graph.edgeTypes;
          for (const n of names)
            if (!this.catalog.edgeViewIn(this.graph, n))
              this.fail(`The edge type ${n} is not in graph ${this.graph.name}`, e);
          const key = `${this.graph.name}\u0000${names.join('\u0000')}`;
          const gid = this.gidOf(e.obj);
          const { catalog, graph } = this;
          return {
            fn: (f) => {
              const view = f.run.view;
              let deg = view.degrees.get(key);
              if (!deg) {
                deg = new Int32Array(view.size);
                for (const n of names) {
                  const adjs = adjacenciesOf(view, catalog, graph, n);
                  for (let v = 0; v < view.size; v++) deg[v]! += degreeAt(adjs, v);
                }
                view.degrees.set(key, deg);
              }
              return deg[gid(f)];
            },
            type: tInt,
          };
        }
        const edgeNames = e.args.length > 0 ? undefined : this.graph.edgeTypes;
        return {
          fn: (f) => {
            const v = obj(f) as Vertex;
            const view = f.run.view;
            const names = edgeNames ?? iterateNames(args.map((x) => x(f)));
            let d = 0;
            for (const n of names) d += degree(view, this.catalog, this.graph, v.gid, n);
            return d;
          },
          type: tInt,
        };
      }
      case 'neighbors': {
        return {
          fn: (f) => {
            const v = obj(f) as Vertex;
            const view = f.run.view;
            const names = args.length > 0 ? iterateNames(args.map((x) => x(f))) : this.graph.edgeTypes;
            const out: Vertex[] = [];
            for (const n of names)
              for (const g of neighbours(view, this.catalog, this.graph, v.gid, n)) out.push(view.vertex(g));
            return out;
          },
        };
      }
      case 'getattr':
        return {
          fn: (f) => {
            const v = obj(f) as Vertex | EdgeRef;
            const name = textOf(args[0]!(f));
            if (v instanceof EdgeRef) {
              const et = f.run.view.edgeTypes[f.run.view.edgeType[v.eid]!]!;
              const col = f.run.view.edgeAttrs.get(name);
              const attr = et.attributes.find((a) => a.name === name);
              if (!col || !attr)
                throw new QueryRuntimeError(`The attribute ${name} does not exist on the edge type ${et.name}.`);
              return col[v.eid] ?? defaultOf(T(attr.type));
            }
            const col = f.run.view.attrs.get(name);
            if (!col) throw new QueryRuntimeError(`The attribute ${name} does not exist.`);
            return col[v.gid];
          },
        };
      case 'setattr':
        return {
          fn: (f) => {
            const v = obj(f) as Vertex;
            setVertexAttr(f, v.gid, textOf(args[0]!(f)), args[1]!(f));
            return null;
          },
        };
      case 'type':
        return { fn: (f) => (obj(f) as Vertex).type, type: tStr };
      case 'id':
        return { fn: (f) => (obj(f) as Vertex).id, type: tStr };
      default:
        return {
          fn: (f) =>
            valueMethod(
              obj(f),
              name,
              args.map((x) => x(f)),
            ),
          type: lname === 'size' ? tInt : undefined,
        };
    }
  }
}

/** How a `+=` of an ACCUM is made: at once, into the accumulator's second column, or queued to the clause's end. */
const enum Adding {
  Now,
  Next,
  Queued,
}

/** A `t.@a += <value of the source>` of an ACCUM (Compiler.addsFromSource). */
interface SourceAdd {
  value: Fn;
  index: number;
  how: Adding;
}

/**
 * A hop from at least 1/WHOLE_SHARE of the view's vertices holds its `+=` back in a whole
 * column (VertexAccs.beginWhole) rather than vertex by vertex: it reaches enough targets that
 * copying the column once costs less than the per-add check it spares.
 */
const WHOLE_SHARE = 16;

/**
 * The hop of a SELECT whose ACCUM only adds values of the source to the target: each value
 * worked out once per source at its first edge (a source without one evaluates nothing), then
 * per edge only the adds and the marks of the vertices reached. Its own loop, so that it keeps
 * its own type feedback apart from the general one's closures.
 */
function walkAddingFromSource(
  f: Frame,
  src: ArrayLike<number>,
  adjs: Adjacency[],
  masks: (Uint8Array | null)[],
  adds: SourceAdd[],
  sSlot: number,
  out: { sSeen: Uint8Array; sList: number[]; tSeen: Uint8Array; tList: number[] },
): void {
  const { sSeen, sList, tSeen, tList } = out;
  const run = f.run;
  const typeOf = run.view.typeOf;
  const n = adds.length;
  const values = new Array<unknown>(n);
  const accs = adds.map((a) => f.va[a.index]!);
  const only = n === 1 && adds[0]!.how === Adding.Next ? accs[0]! : undefined;
  const whole = only !== undefined && src.length * WHOLE_SHARE >= run.view.size && only.beginWhole();
  const now = n === 1 && adds[0]!.how === Adding.Now ? accs[0]! : undefined;
  for (let i = 0; i < src.length; i++) {
    const s = src[i]!;
    let valued = false;
    for (let a = 0; a < adjs.length; a++) {
      const { off, nbr } = adjs[a]!;
      const mask = masks[a]!;
      const start = off[s]!;
      const end = off[s + 1]!;
      if (start === end) continue;
      run.tickMany(end - start);
      if (!valued) {
        f.vars[sSlot] = s;
        for (let j = 0; j < n; j++) values[j] = adds[j]!.value(f);
        valued = true;
      }
      const x = values[0];
      let matched = mask === null;
      for (let k = start; k < end; k++) {
        const t = nbr[k]!;
        if (mask !== null) {
          if (!mask[typeOf[t]!]) continue;
          matched = true;
        }
        if (whole) only!.addWhole(t, x);
        else if (only !== undefined) only.addNext(t, x);
        else if (now !== undefined) now.add(t, x);
        else
          for (let j = 0; j < n; j++) {
            const add = adds[j]!;
            if (add.how === Adding.Now) accs[j]!.add(t, values[j]);
            else if (add.how === Adding.Next) accs[j]!.addNext(t, values[j]);
            else run.pending.push(add.index, t, values[j]);
          }
        if (tSeen[t] === 0) {
          tSeen[t] = 1;
          tList.push(t);
        }
      }
      if (matched && sSeen[s] === 0) {
        sSeen[s] = 1;
        sList.push(s);
      }
    }
  }
  if (whole) only!.endWhole(tList);
}

/** A SELECT's POST-ACCUM clauses (each over one alias's vertices), HAVING, ORDER BY and LIMIT, compiled. */
interface SelectEnd {
  posts: { slot: number; fn: ((f: Frame) => void) | undefined }[];
  having: Fn | undefined;
  order: { fn: Fn; desc: boolean }[];
  limit: Fn | undefined;
}

/** Runs a SELECT's end over the vertices its matches took: `listOf(slot)` for each alias. */
function finishSelect(f: Frame, end: SelectEnd, listOf: (slot: number) => number[], outSlot: number): number[] {
  const { run, vars } = f;
  for (const post of end.posts) {
    if (!post.fn) continue;
    const list = listOf(post.slot);
    for (let i = 0; i < list.length; i++) {
      run.tick();
      vars[post.slot] = list[i]!;
      post.fn(f);
    }
    flushPending(f);
  }
  let out = listOf(outSlot);
  const { having, order, limit } = end;
  if (having) {
    out = out.filter((gid) => {
      run.tick();
      vars[outSlot] = gid;
      return !!having(f);
    });
  }
  if (order.length > 0) {
    const keyed = out.map((gid) => {
      vars[outSlot] = gid;
      return { gid, keys: order.map((o) => o.fn(f)) };
    });
    keyed.sort((x, y) => {
      for (let i = 0; i < order.length; i++) {
        const c = compare(x.keys[i], y.keys[i]);
        if (c !== 0) return order[i]!.desc ? -c : c;
      }
      return 0;
    });
    out = keyed.map((k) => k.gid);
  }
  if (limit) out = out.slice(0, Math.max(0, Number(limit(f))));
  return out;
}

function flushPending(f: Frame): void {
  const p = f.run.pending;
  const n = p.n;
  const { idx, gid, val } = p;
  const g = f.g;
  const va = f.va;
  for (let i = 0; i < va.length; i++) va[i]!.flushNext();
  if (n === 0) return;
  for (let i = 0; i < n; i++) {
    const v = gid[i]!;
    if (v < 0) g[idx[i]!]!.add(val[i]);
    else va[idx[i]!]!.add(v, val[i]);
  }
  p.n = 0;
}

/** The run's FILE folder: a workspace without one refuses FILE objects. */
function filesOf(f: Frame): QueryFiles {
  const files = f.run.files;
  if (!files) throw new QueryRuntimeError('FILE objects are not available: this workspace has no file folder.');
  return files;
}

/**
 * The statements of a block from the i-th on, pausing before one when the run is due to: the
 * outcome at once while nothing pauses, else a promise of it that goes on from where it paused.
 */
function statementsFrom(f: Frame, fns: StmtFn[], i: number): Outcome | Promise<Outcome> {
  for (; i < fns.length; i++) {
    if (f.run.pauseDue) {
      const at = i;
      return f.run.pause().then(() => statementsFrom(f, fns, at));
    }
    const outcome = fns[i]!(f);
    if (outcome instanceof Promise) {
      const after = i + 1;
      return outcome.then((s) => (s !== undefined ? s : statementsFrom(f, fns, after)));
    }
    if (outcome !== undefined) return outcome;
  }
  return undefined;
}

/**
 * A loop: `body` once for each step `next` takes (false when there is none left), pausing
 * between steps when `pausing` and the run is due to. BREAK ends it, RETURN ends it and is passed on.
 */
function loopSteps(f: Frame, next: () => boolean, body: StmtFn, pausing: boolean): Outcome | Promise<Outcome> {
  for (;;) {
    if (pausing && f.run.pauseDue) return f.run.pause().then(() => loopSteps(f, next, body, pausing));
    if (!next()) return undefined;
    const outcome = body(f);
    if (outcome instanceof Promise)
      return outcome.then((s) =>
        s === Signal.Break ? undefined : s === Signal.Return ? s : loopSteps(f, next, body, pausing),
      );
    if (outcome === Signal.Break) return undefined;
    if (outcome === Signal.Return) return outcome;
  }
}

function seq(fns: ((f: Frame) => void)[]): StmtFn {
  return (f) => {
    for (const fn of fns) fn(f);
    return undefined;
  };
}

function* iterate(v: unknown): Iterable<unknown> {
  if (v === null || v === undefined) return;
  if (Array.isArray(v) || v instanceof Set) yield* v;
  else if (v instanceof Map) yield* v;
  else if (v instanceof Acc) {
    // Map and GroupBy accumulators are their own value: iterate their entries, not their value again.
    const inner = v.value();
    if (inner !== v) yield* iterate(inner);
    else if (typeof (v as unknown as Iterable<unknown>)[Symbol.iterator] === 'function')
      yield* v as unknown as Iterable<unknown>;
  } else if (typeof (v as Iterable<unknown>)[Symbol.iterator] === 'function' && typeof v !== 'string')
    yield* v as Iterable<unknown>;
  else yield v;
}

/** A set operand: an accumulator's value, or the value itself. */
function collectionOf(v: unknown): unknown {
  return v instanceof Acc ? v.value() : v;
}

/** The elements of a set operand, without a generator for the common Sets and lists. */
function eachOf(v: unknown): Iterable<unknown> {
  return v instanceof Set || Array.isArray(v) ? v : iterate(v);
}

/**
 * Membership by key (tuples by content); a Set of plain values is asked directly, not copied.
 * An object rather than closures: a set operation in an ACCUM makes one per edge.
 */
class Members {
  private keys: Set<unknown> | undefined;
  constructor(private readonly of: unknown) {}

  has(x: unknown): boolean {
    const of = this.of;
    if (of instanceof Set && !keyedApart(x)) return of.has(x);
    return (this.keys ??= new Set([...eachOf(of)].map(keyOf))).has(keyOf(x));
  }
}

function iterateNames(args: unknown[]): string[] {
  const out: string[] = [];
  for (const a of args) for (const x of iterate(a)) out.push(textOf(x));
  return out;
}

function vsetValue(f: Frame, v: unknown): unknown {
  return (v as number[]).map((g) => f.run.view.vertex(g));
}

function vertexHead(view: GraphView, gid: number, attributes: Record<string, unknown>): Record<string, unknown> {
  return { v_id: view.ids[gid], v_type: view.vertexTypes[view.typeOf[gid]!]!.name, attributes };
}

function setVertexAttr(f: Frame, gid: number, name: string, value: unknown): void {
  const view = f.run.view;
  const type = view.vertexTypes[view.typeOf[gid]!]!;
  const attr = type.attributes.find((a) => a.name === name);
  if (!attr) throw new QueryRuntimeError(`The vertex type ${type.name} has no attribute ${name}.`);
  if (attr.isPrimaryKey) throw new QueryRuntimeError(`The primary key ${name} cannot be changed.`);
  const v = attr.type === 'INT' || attr.type === 'UINT' ? Math.trunc(value as number) : value;
  view.attrs.get(name)![gid] = v;
  let w = f.run.writes.vertexAttrs.get(gid);
  if (!w) f.run.writes.vertexAttrs.set(gid, (w = new Map()));
  w.set(name, v);
}

/** Deletes a vertex, with its edges, when the run's writes are committed. */
function deleteLater(f: Frame, gid: number): void {
  const view = f.run.view;
  const type = view.vertexTypes[view.typeOf[gid]!]!;
  const id = view.ids[gid]!;
  f.run.writes.structural.push((store) => {
    deleteIds(store, type, [id]);
    return { vertices: [{ type, id, deleted: true }], edges: [] };
  });
}

/** A value as the store keeps it: DATETIME as text. */
export function storedValue(type: string, v: unknown): AttributeValue {
  if (type === 'DATETIME') return typeof v === 'number' ? formatDatetime(v) : String(v);
  if (v instanceof Vertex) return v.id;
  return v as AttributeValue;
}

function plus(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (typeof a === 'string' || typeof b === 'string') return madeString(textOf(a) + textOf(b));
  // A list and a list (`s.@path + [t]`) without the generator, which costs most of such a `+`.
  if (Array.isArray(a)) {
    if (Array.isArray(b)) {
      copying(a.length + b.length);
      return a.concat(b);
    }
    copying(a.length);
    return [...a, ...iterate(b)];
  }
  if (a instanceof Set) {
    copying(a.size);
    return new Set([...a, ...iterate(b)]);
  }
  if (a instanceof ArrayAcc) return a.plus(b);
  return (a as number) + (b as number);
}

function union(a: number[], b: number[]): number[] {
  const seen = new Set(a);
  const out = [...a];
  for (const x of b)
    if (!seen.has(x)) {
      seen.add(x);
      out.push(x);
    }
  return out;
}

function intersect(a: number[], b: number[]): number[] {
  const inB = new Set(b);
  return a.filter((x) => inB.has(x));
}

function minus(a: number[], b: number[]): number[] {
  const inB = new Set(b);
  return a.filter((x) => !inB.has(x));
}

function degree(view: GraphView, catalog: Catalog, graph: GraphDef, gid: number, name: string): number {
  return degreeAt(adjacenciesOf(view, catalog, graph, name), gid);
}

/**
 * The edges at v in an edge name's adjacencies (as adjacenciesOf gives them). An undirected
 * self-loop is in both lists of its type but is one edge: the second list's copy is not counted.
 */
function degreeAt(adjs: Adjacency[], v: number): number {
  let d = 0;
  for (const adj of adjs) d += adj.off[v + 1]! - adj.off[v]!;
  const back = adjs.length === 2 ? adjs[1]! : undefined;
  if (back) for (let k = back.off[v]!; k < back.off[v + 1]!; k++) if (back.nbr[k] === v) d--;
  return d;
}

function* neighbours(view: GraphView, catalog: Catalog, graph: GraphDef, gid: number, name: string): Iterable<number> {
  for (const adj of adjacenciesOf(view, catalog, graph, name))
    for (let k = adj.off[gid]!; k < adj.off[gid + 1]!; k++) yield adj.nbr[k]!;
}

/** An edge name's adjacency out of a vertex: forward, reverse (a REVERSE_EDGE name), or both ways (undirected). */
function adjacenciesOf(view: GraphView, catalog: Catalog, graph: GraphDef, name: string): Adjacency[] {
  const ev = catalog.edgeViewIn(graph, name);
  if (!ev) throw new QueryRuntimeError(`The edge type ${name} is not in graph ${graph.name}.`);
  const et = view.etIndex.get(ev.type.name)!;
  if (!ev.type.directed) return [view.out[et]!, view.in[et]!];
  return [ev.reversed ? view.in[et]! : view.out[et]!];
}

function intervalSeconds(n: unknown, unit: unknown): number {
  const k = Number(n);
  switch (textOf(unit ?? 'SECOND').toUpperCase()) {
    case 'MINUTE':
      return k * 60;
    case 'HOUR':
      return k * 3600;
    case 'DAY':
      return k * 86400;
    default:
      return k;
  }
}

function valueMethod(v: unknown, name: string, args: unknown[]): unknown {
  const lname = name.toLowerCase();
  if (v instanceof Acc) return v.method(name, args);
  if (typeof v === 'string') {
    switch (lname) {
      case 'size':
      case 'length':
        return v.length;
      default:
        break;
    }
  }
  if (Array.isArray(v)) {
    switch (lname) {
      case 'size':
        return v.length;
      case 'get':
        return v[args[0] as number];
      case 'contains':
        return v.some((x) => eq(x, args[0]));
      case 'clear':
        v.length = 0;
        return null;
      default:
        break;
    }
  }
  if (v instanceof Set) {
    switch (lname) {
      case 'size':
        return v.size;
      case 'contains':
        return v.has(args[0]) || [...v].some((x) => keyOf(x) === keyOf(args[0]));
      case 'clear':
        v.clear();
        return null;
      case 'remove':
        v.delete(args[0]);
        return null;
      default:
        break;
    }
  }
  if (v instanceof Map) {
    switch (lname) {
      case 'size':
        return v.size;
      case 'get':
        return v.get(args[0]);
      case 'containskey':
        return v.has(args[0]);
      default:
        break;
    }
  }
  throw new QueryRuntimeError(`The method ${name}() does not apply to this value.`);
}

/** Names of accumulators a clause accumulates into (`+=`, `=`) and reads. */
function collectAccums(stmts: Stmt[], written: Set<string>, read: Set<string>): void {
  const visit = (s: Stmt) => {
    walkStmt(s, (e, asTarget) => {
      const name =
        e.k === 'gacc' ? `@@${e.name}` : e.k === 'vacc' ? `@${e.name}` : e.k === 'attr' ? `.${e.name}` : undefined;
      if (!name) return;
      if (asTarget) written.add(name);
      else read.add(name);
    });
  };
  stmts.forEach(visit);
}

/**
 * Vertex accumulators that statements change only with `+=` (never `=`, `-=` or a method), so that
 * their held-back adds can go into a second column.
 */
function onlyAddedTo(stmts: Stmt[]): Set<string> {
  const added = new Set<string>();
  const other = new Set<string>();
  const visit = (s: Stmt) =>
    walkStmt(s, (e) => {
      if (e.k === 'method' && e.obj.k === 'vacc') other.add(e.obj.name);
    });
  const targets = (s: Stmt) => {
    if (s.k === 'assign' && s.target.k === 'vacc') (s.op === '+=' ? added : other).add(s.target.name);
    const body = (b: Stmt[] | undefined) => b?.forEach(targets);
    if (s.k === 'if') {
      for (const b of s.branches) body(b.body);
      body(s.else);
    } else if (s.k === 'case') {
      for (const w of s.whens) body(w.body);
      body(s.else);
    } else if (s.k === 'while' || s.k === 'foreach') body(s.body);
    else if (s.k === 'try') {
      body(s.body);
      for (const h of s.handlers) body(h.body);
    }
  };
  stmts.forEach(visit);
  stmts.forEach(targets);
  for (const n of other) added.delete(n);
  return added;
}

function collectReads(e: Expr, read: Set<string>): void {
  walkExpr(e, (x) => {
    if (x.k === 'gacc') read.add(`@@${x.name}`);
    else if (x.k === 'vacc') read.add(`@${x.name}`);
    else if (x.k === 'attr') read.add(`.${x.name}`);
  });
}

function collectNames(s: Stmt, names: Set<string>): void {
  walkStmt(s, (e) => {
    if (e.k === 'name') names.add(e.name);
  });
}

/** Finds `@acc'` reads: only those accumulators keep previous values. */
function findPrimes(stmts: Stmt[], out: Set<string>): void {
  for (const s of stmts)
    walkStmt(s, (e) => {
      if (e.k === 'vacc' && e.prime) out.add(e.name);
    });
}

function walkStmt(s: Stmt, visit: (e: Expr, asTarget: boolean) => void): void {
  const ex = (e: Expr | undefined) => e && walkExpr(e, (x) => visit(x, false));
  const body = (b: Stmt[] | undefined) => b?.forEach((x) => walkStmt(x, visit));
  switch (s.k) {
    case 'assign': {
      // `@@a[i] += x` writes @@a and reads i.
      let target = s.target;
      while (target.k === 'index') {
        ex(target.idx);
        target = target.obj;
      }
      visit(target, true);
      if (target.k === 'vacc' || target.k === 'attr') ex(target.obj);
      if (s.op !== '=' && s.target.k === 'name') visit(s.target, false);
      ex(s.value);
      break;
    }
    case 'if':
      s.branches.forEach((b) => (ex(b.cond), body(b.body)));
      body(s.else);
      break;
    case 'case':
      ex(s.subject);
      s.whens.forEach((w) => (ex(w.cond), body(w.body)));
      body(s.else);
      break;
    case 'while':
      ex(s.cond);
      ex(s.limit);
      body(s.body);
      break;
    case 'foreach':
      if ('range' in s.iter) s.iter.range.forEach(ex);
      else ex(s.iter);
      body(s.body);
      break;
    case 'print':
      s.items.forEach((i) => (ex(i.e), i.projection?.forEach((p) => ex(p.e))));
      ex(s.where);
      ex(s.toCsv);
      break;
    case 'return':
      ex(s.e);
      break;
    case 'expr':
      ex(s.e);
      break;
    case 'varDecl':
      s.vars.forEach((v) => ex(v.init));
      break;
    case 'raise':
      s.args.forEach(ex);
      break;
    case 'try':
      body(s.body);
      s.handlers.forEach((h) => body(h.body));
      break;
    case 'delete':
      walkSelect(s.sel, (e) => visit(e, false));
      break;
    case 'insert':
      s.values.forEach(ex);
      break;
    default:
      break;
  }
}

function walkSelect(sel: Select, visit: (e: Expr) => void): void {
  const ex = (e: Expr | undefined) => e && walkExpr(e, visit);
  ex(sel.where);
  ex(sel.having);
  ex(sel.limit);
  sel.orderBy.forEach((o) => ex(o.e));
  for (const s of [...sel.accum, ...sel.postAccum.flat()]) walkStmt(s, (e) => visit(e));
}

function walkExpr(e: Expr, visit: (e: Expr) => void): void {
  visit(e);
  const w = (x: Expr | undefined) => x && walkExpr(x, visit);
  switch (e.k) {
    case 'vacc':
    case 'attr':
      w(e.obj);
      break;
    case 'call':
      e.args.forEach(w);
      break;
    case 'method':
      w(e.obj);
      e.args.forEach(w);
      break;
    case 'bin':
    case 'setop':
      w(e.l);
      w(e.r);
      break;
    case 'un':
      w(e.e);
      break;
    case 'index':
      w(e.obj);
      w(e.idx);
      break;
    case 'case':
      w(e.subject);
      e.whens.forEach(([a, b]) => (w(a), w(b)));
      w(e.else);
      break;
    case 'arrow':
      e.keys.forEach(w);
      e.vals.forEach(w);
      break;
    case 'paren':
    case 'list':
      e.items.forEach(w);
      break;
    case 'seed':
      e.items.forEach((i) => i.k === 'expr' && w(i.e));
      break;
    case 'in':
      w(e.e);
      w(e.list);
      break;
    case 'isnull':
      w(e.e);
      break;
    case 'like':
      w(e.e);
      w(e.pattern);
      break;
    case 'select':
      walkSelect(e.sel, visit);
      break;
    default:
      break;
  }
}

/** Compiles a query for a graph; QuerySemanticError names what does not fit the schema. */
export function compileQuery(
  catalog: Catalog,
  graph: GraphDef,
  def: QueryDef,
  isQuery: (name: string) => boolean,
): CompiledQuery {
  return new Compiler(catalog, graph, def, isQuery).compile();
}
