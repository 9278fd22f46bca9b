import type { AccType, QueryDef, Stmt, TypeRef } from './ast.js';

/** A parameter or variable type as GSQL writes it (`SET<VERTEX<T>>`, `MAP<K,V>`). */
export function typeText(t: TypeRef): string {
  switch (t.k) {
    case 'base':
      return t.vertexType ? `VERTEX<${t.vertexType}>` : t.name;
    case 'coll':
      return `${t.name}<${typeText(t.elem)}>`;
    case 'map':
      return `MAP<${typeText(t.key)},${typeText(t.value)}>`;
    case 'tuple':
      return t.name;
    case 'accum':
      return t.acc.name;
  }
}

/** What an accumulator prints as: a scalar accumulator its value's type, else the accumulator. */
function accumText(a: AccType): string {
  switch (a.name) {
    case 'SumAccum':
    case 'MinAccum':
    case 'MaxAccum':
      return typeText(a.elem).toLowerCase();
    case 'AvgAccum':
      return 'double';
    case 'OrAccum':
    case 'AndAccum':
      return 'bool';
    case 'ListAccum':
    case 'SetAccum':
    case 'BagAccum':
      return `${a.name}<${typeText(a.elem)}>`;
    case 'MapAccum':
      return `MapAccum<${typeText(a.key)},${typeText(a.value)}>`;
    default:
      return a.name;
  }
}

/** The statements inside a statement's blocks, in the order written. */
function* walk(body: Stmt[]): Generator<Stmt> {
  for (const s of body) {
    yield s;
    switch (s.k) {
      case 'if':
        for (const b of s.branches) yield* walk(b.body);
        if (s.else) yield* walk(s.else);
        break;
      case 'while':
      case 'foreach':
        yield* walk(s.body);
        break;
      case 'case':
        for (const w of s.whens) yield* walk(w.body);
        if (s.else) yield* walk(s.else);
        break;
      case 'try':
        yield* walk(s.body);
        for (const h of s.handlers) yield* walk(h.body);
        break;
    }
  }
}

/**
 * The output signature of a query as the GSQL server's query signature lists it: one object per
 * PRINT statement, each printed key with the type it prints. A type the text does not tell (an
 * expression, a vertex set) is given as `unknown` or `vertex set`.
 */
export function printSignature(def: QueryDef): Record<string, string>[] {
  const types = new Map<string, string>();
  for (const p of def.params) types.set(p.name, typeText(p.type).toLowerCase());
  const out: Record<string, string>[] = [];
  for (const s of walk(def.body)) {
    if (s.k === 'accDecl') for (const v of s.vars) types.set(v.global ? `@@${v.name}` : v.name, accumText(s.type));
    else if (s.k === 'varDecl') for (const v of s.vars) types.set(v.name, typeText(s.type).toLowerCase());
    else if (s.k === 'print') {
      const shape: Record<string, string> = {};
      for (const item of s.items) {
        const e = item.e;
        let type = 'unknown';
        if (e.k === 'lit')
          type = typeof e.v === 'string' ? 'string' : typeof e.v === 'boolean' ? 'bool' : e.int ? 'int' : 'double';
        else if (e.k === 'gacc') type = types.get(`@@${e.name}`) ?? 'unknown';
        else if (e.k === 'name') type = types.get(e.name) ?? 'vertex set';
        shape[item.key] = type;
      }
      out.push(shape);
    }
  }
  return out;
}
