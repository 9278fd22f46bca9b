import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scratchStores } from '../../../test/helpers/scratch-stores.js';
import { dataFolder } from '../data-folder.js';
import type { GraphStore } from '../graph-store.js';
import { runGsql } from '../gsql-runner.js';
import { planUpsert } from '../upsert-plan.js';
import { writeUpsert } from '../upsert-write.js';
import { GraphView, graphView } from './graph-view.js';

/**
 * The query engine over a real store file: algorithms written in GSQL the way the algorithm
 * library writes them, checked against plain JavaScript computations on the same graph.
 */

const stores = scratchStores('query');

const N = 80;
/** A seeded generator: the same graph every run. */
function lcg(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const rand = lcg(7);
const directed: [number, number][] = [];
const undirected: [number, number][] = [];
{
  const seen = new Set<string>();
  while (directed.length < 240) {
    const a = Math.floor(rand() * N);
    const b = Math.floor(rand() * N);
    if (a === b || seen.has(`${a}>${b}`)) continue;
    seen.add(`${a}>${b}`);
    directed.push([a, b]);
  }
  // Undirected edges among the first 60 vertices only: the rest are singletons for WCC.
  while (undirected.length < 70) {
    const a = Math.floor(rand() * 60);
    const b = Math.floor(rand() * 60);
    const k = `${Math.min(a, b)}-${Math.max(a, b)}`;
    if (a === b || seen.has(k)) continue;
    seen.add(k);
    undirected.push([a, b]);
  }
}
const vid = (i: number) => `v${i}`;

/** A store of its own holding the test graph. */
function open(): GraphStore {
  const store = stores.open(`CREATE VERTEX P (PRIMARY_ID id STRING, name STRING, born DATETIME, rank DOUBLE)
CREATE DIRECTED EDGE E (FROM P, TO P, w DOUBLE) WITH REVERSE_EDGE="rev_E"
CREATE UNDIRECTED EDGE U (FROM P, TO P)
CREATE GRAPH g (*)`);
  const vertices = Object.fromEntries(
    Array.from({ length: N }, (_, i) => [vid(i), { name: { value: `n${i}` }, born: { value: '2020-01-02 03:04:05' } }]),
  );
  const edges: Record<string, Record<string, Record<string, Record<string, Record<string, object>>>>> = {};
  const add = (e: string, a: number, b: number) => {
    ((edges[vid(a)] ??= {})[e] ??= { P: {} }).P![vid(b)] = e === 'E' ? { w: { value: a + b } } : {};
  };
  for (const [a, b] of directed) add('E', a, b);
  for (const [a, b] of undirected) add('U', a, b);
  writeUpsert(store, planUpsert(store, store.graph('g', '/'), { vertices: { P: vertices }, edges: { P: edges } }));
  return store;
}

function gsql(store: GraphStore, text: string): string {
  const r = runGsql(store, `USE GRAPH g\n${text}`);
  assert.ok(r.ok, r.output);
  return r.output;
}

/** The JSON a RUN QUERY or INTERPRET printed (after the `Using graph` line). */
function results(output: string): Record<string, unknown>[] {
  const json = JSON.parse(output.slice(output.indexOf('{'))) as { error: boolean; results: Record<string, unknown>[] };
  assert.equal(json.error, false);
  return json.results;
}

interface PrintedVertex {
  v_id: string;
  v_type: string;
  attributes: Record<string, unknown>;
}

const pagerank = `CREATE QUERY page_rank(FLOAT max_change = 0.0, INT max_iter = 25, FLOAT damping = 0.85) FOR GRAPH g {
  MaxAccum<FLOAT> @@max_diff = 9999;
  SumAccum<FLOAT> @sum_recvd_score = 0;
  SumAccum<FLOAT> @sum_score = 1;
  all_v = {P.*};
  WHILE @@max_diff > max_change LIMIT max_iter DO
    @@max_diff = 0;
    v_set = SELECT s FROM all_v:s -(E:e)-> P:t
            ACCUM t.@sum_recvd_score += s.@sum_score / (s.outdegree("E"))
            POST-ACCUM s.@sum_score = (1.0 - damping) + damping * s.@sum_recvd_score,
                       s.@sum_recvd_score = 0,
                       @@max_diff += abs(s.@sum_score - s.@sum_score');
  END;
  PRINT all_v[all_v.@sum_score AS score];
}`;

/**
 * The same iterations with GSQL's types: FLOAT (the accumulators, `damping`, FLOAT / INT and
 * FLOAT * FLOAT) is 4 bytes, so each such value is rounded to float32; `1.0 - damping` is DOUBLE.
 */
function referencePageRank(iterations: number, damping: number): number[] {
  const f = Math.fround;
  const d = f(damping);
  let score = new Array<number>(N).fill(1);
  const out = new Array<number>(N).fill(0);
  for (const [a] of directed) out[a]!++;
  for (let it = 0; it < iterations; it++) {
    const recvd = new Array<number>(N).fill(0);
    for (const [a, b] of directed) recvd[b] = f(recvd[b]! + f(score[a]! / out[a]!));
    // Only vertices with an out-edge are in the SELECT's result, so only they take a new score.
    score = score.map((s, v) => (out[v]! > 0 ? f(1.0 - d + f(d * recvd[v]!)) : s));
  }
  return score;
}

const wcc = `CREATE QUERY wcc() FOR GRAPH g {
  MinAccum<INT> @cc_id;
  MapAccum<INT, SumAccum<INT>> @@sizes;
  start = {P.*};
  start = SELECT x FROM start:x POST-ACCUM x.@cc_id = getvid(x);
  WHILE start.size() > 0 DO
    start = SELECT t FROM start:s -(U:e)- :t
            WHERE s.@cc_id < t.@cc_id
            ACCUM t.@cc_id += s.@cc_id;
  END;
  all_v = {P.*};
  all_v = SELECT v FROM all_v:v POST-ACCUM @@sizes += (v.@cc_id -> 1);
  PRINT @@sizes.size() AS components;
  PRINT all_v[all_v.@cc_id AS cc];
}`;

function referenceComponents(): number[] {
  const parent = Array.from({ length: N }, (_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x]!)));
  for (const [a, b] of undirected) parent[find(a)] = find(b);
  return Array.from({ length: N }, (_, i) => find(i));
}

const bfs = `CREATE QUERY bfs(VERTEX<P> source) FOR GRAPH g {
  OrAccum @visited;
  SumAccum<INT> @dist;
  frontier = {source};
  frontier = SELECT s FROM frontier:s ACCUM s.@visited += true;
  WHILE frontier.size() > 0 DO
    frontier = SELECT t FROM frontier:s -(E:e)-> P:t
               WHERE t.@visited == false
               ACCUM t.@dist = s.@dist + 1, t.@visited += true;
  END;
  all_v = {P.*};
  reached = SELECT v FROM all_v:v WHERE v.@visited;
  PRINT reached[reached.@dist AS dist];
}`;

function referenceBfs(source: number): Map<number, number> {
  const dist = new Map([[source, 0]]);
  let frontier = [source];
  while (frontier.length) {
    const next: number[] = [];
    for (const s of frontier)
      for (const [a, b] of directed)
        if (a === s && !dist.has(b)) {
          dist.set(b, dist.get(s)! + 1);
          next.push(b);
        }
    frontier = next;
  }
  return dist;
}

const triangles = `CREATE QUERY tri_count() FOR GRAPH g {
  SetAccum<VERTEX> @nbrs;
  SumAccum<INT> @@triangles;
  all_v = {P.*};
  all_v = SELECT s FROM all_v:s -(U:e)- :t ACCUM s.@nbrs += t;
  pairs = SELECT s FROM all_v:s -(U:e)- :t
          WHERE getvid(s) < getvid(t)
          ACCUM @@triangles += (s.@nbrs INTERSECT t.@nbrs).size();
  PRINT @@triangles / 3 AS triangles;
}`;

function referenceTriangles(): number {
  const adj = Array.from({ length: N }, () => new Set<number>());
  for (const [a, b] of undirected) {
    adj[a]!.add(b);
    adj[b]!.add(a);
  }
  let count = 0;
  for (const [a, b] of undirected) for (const c of adj[a]!) if (adj[b]!.has(c)) count++;
  return count / 3;
}

const twoHop = `CREATE QUERY two_hop(VERTEX<P> source) FOR GRAPH g {
  start = {source};
  one = SELECT t FROM start:s -(E:e)-> P:t;
  two = SELECT t FROM one:s -(E:e)-> P:t WHERE t != source;
  both = one UNION two;
  PRINT both.size() AS n;
  PRINT both[both.name];
}`;

describe('GSQL queries over a store', () => {
  let store: GraphStore;
  before(() => {
    store = open();
    for (const q of [pagerank, wcc, bfs, triangles, twoHop]) gsql(store, q);
    const out = gsql(store, 'INSTALL QUERY ALL');
    assert.match(out, /Start installing queries[\s\S]*Query installation finished\./);
  });
  after(() => store.close());

  it('PageRank matches a plain computation of the same iterations', () => {
    const printed = results(gsql(store, 'RUN QUERY page_rank(0.0, 25, 0.85)'))[0]!.all_v as PrintedVertex[];
    const expected = referencePageRank(25, 0.85);
    assert.equal(printed.length, N);
    for (const v of printed) {
      assert.equal(v.v_type, 'P');
      const i = Number(v.v_id.slice(1));
      // float32 sums depend on the order of their terms, which differs here: a few units in the last place.
      assert.ok(Math.abs((v.attributes.score as number) - expected[i]!) < 1e-6, `${v.v_id}`);
    }
  });

  it('WCC finds the connected components of the undirected edges', () => {
    const [first, second] = results(gsql(store, 'RUN QUERY wcc()'));
    const roots = referenceComponents();
    assert.equal(first!.components, new Set(roots).size);
    const cc = new Map((second!.all_v as PrintedVertex[]).map((v) => [Number(v.v_id.slice(1)), v.attributes.cc]));
    for (let a = 0; a < N; a++)
      for (let b = a + 1; b < N; b++) assert.equal(cc.get(a) === cc.get(b), roots[a] === roots[b], `${a} ${b}`);
  });

  it('BFS gives the unweighted distance of every reachable vertex', () => {
    const printed = results(gsql(store, 'RUN QUERY bfs("v3")'))[0]!.reached as PrintedVertex[];
    const expected = referenceBfs(3);
    assert.equal(printed.length, expected.size);
    for (const v of printed) assert.equal(v.attributes.dist, expected.get(Number(v.v_id.slice(1))), v.v_id);
  });

  it("propagates labels as the algorithm library does: `+=` of the source held back, HAVING reading `@acc'`", () => {
    // The first hop starts from every vertex, so its adds are held back in a whole column; the
    // hops from one vertex start from fewer than a sixteenth of them, so theirs are vertex by vertex.
    gsql(
      store,
      `CREATE QUERY labels() FOR GRAPH g {
  MinAccum<INT> @label;
  all_v = {P.*};
  s = SELECT x FROM all_v:x POST-ACCUM x.@label = getvid(x);
  WHILE s.size() > 0 DO
    s = SELECT t FROM s:s -(U:e)- P:t ACCUM t.@label += s.@label HAVING t.@label != t.@label';
  END;
  PRINT all_v[all_v.@label AS label];
}
CREATE QUERY hops(VERTEX<P> source) FOR GRAPH g {
  MinAccum<INT> @d = 1000000;
  s = {source};
  s = SELECT x FROM s:x POST-ACCUM x.@d = 0;
  WHILE s.size() > 0 DO
    s = SELECT t FROM s:s -(E:e)-> P:t ACCUM t.@d += s.@d + 1 HAVING t.@d != t.@d';
  END;
  all_v = {P.*};
  reached = SELECT v FROM all_v:v WHERE v.@d < 1000000;
  PRINT reached[reached.@d AS dist];
}
INSTALL QUERY labels, hops`,
    );
    const labels = new Map(
      (results(gsql(store, 'RUN QUERY labels()'))[0]!.all_v as PrintedVertex[]).map((v) => [
        Number(v.v_id.slice(1)),
        v.attributes.label,
      ]),
    );
    const roots = referenceComponents();
    assert.equal(labels.size, N);
    for (let a = 0; a < N; a++)
      for (let b = a + 1; b < N; b++) assert.equal(labels.get(a) === labels.get(b), roots[a] === roots[b], `${a} ${b}`);
    const printed = results(gsql(store, 'RUN QUERY hops("v3")'))[0]!.reached as PrintedVertex[];
    const expected = referenceBfs(3);
    assert.ok(expected.size > N / 2, 'most vertices are reached, so later hops are whole');
    assert.equal(printed.length, expected.size);
    for (const v of printed) assert.equal(v.attributes.dist, expected.get(Number(v.v_id.slice(1))), v.v_id);
  });

  it("reads held-back `+=` of a clause as they were before it, and `@acc'` as before the block", () => {
    gsql(
      store,
      `CREATE QUERY held_back() FOR GRAPH g {
  SumAccum<INT> @c;
  SumAccum<INT> @d;
  MinAccum<INT> @m;
  MaxAccum<INT> @was;
  all_v = {P.*};
  r = SELECT t FROM all_v:s -(E:e)-> P:t ACCUM t.@c += 1, t.@d += t.@c + 1, t.@m += t.@c;
  r = SELECT t FROM all_v:s -(E:e)-> P:t ACCUM t.@c += 1, t.@d += t.@c, t.@m += t.@c + 1
      POST-ACCUM t.@was += t.@c';
  PRINT r[r.@c AS c, r.@d AS d, r.@m AS m, r.@was AS was];
}`,
    );
    gsql(store, 'INSTALL QUERY held_back');
    const printed = results(gsql(store, 'RUN QUERY held_back()'))[0]!.r as PrintedVertex[];
    const indegree = new Map<number, number>();
    for (const [, b] of directed) indegree.set(b, (indegree.get(b) ?? 0) + 1);
    assert.equal(printed.length, indegree.size);
    for (const v of printed) {
      const k = indegree.get(Number(v.v_id.slice(1)))!;
      assert.deepEqual(v.attributes, { c: 2 * k, d: k + k * k, m: 0, was: k }, v.v_id);
    }
  });

  it('counts triangles with set intersections', () => {
    assert.equal(results(gsql(store, 'RUN QUERY tri_count()'))[0]!.triangles, referenceTriangles());
  });

  it('answers a 2-hop neighbourhood with UNION', () => {
    const [count, list] = results(gsql(store, 'RUN QUERY two_hop("v5")'));
    const one = new Set(directed.filter(([a]) => a === 5).map(([, b]) => b));
    const expected = new Set(one);
    for (const [a, b] of directed) if (one.has(a) && b !== 5) expected.add(b);
    assert.equal(count!.n, expected.size);
    const names = (list!.both as PrintedVertex[]).map((v) => v.attributes['both.name']);
    assert.deepEqual(new Set(names), new Set([...expected].map((i) => `n${i}`)));
  });
});

describe('GSQL query language', () => {
  let store: GraphStore;
  before(() => (store = open()));
  after(() => store.close());

  const interpret = (body: string, params = '') =>
    results(gsql(store, `INTERPRET QUERY (${params}) FOR GRAPH g {\n${body}\n}`));

  it('matches strings with LIKE and NOT LIKE, in expressions and in WHERE', () => {
    const [r] = interpret(
      'PRINT "hello" LIKE "h%o" AS a, "hello" LIKE "h_llo" AS b, "hello" NOT LIKE "%z%" AS c, ' +
        '"a%b" LIKE "a\\\\%b" AS d, "axb" LIKE "a\\\\%b" AS e, ' +
        '"cat" LIKE "[bc]a[^r]" AS f, "car" LIKE "[bc]a[^r]" AS g, "m" LIKE "[a-f]" AS h;',
    );
    assert.deepEqual(r, { a: true, b: true, c: true, d: true, e: false, f: true, g: false, h: false });
    const [s] = interpret(
      'SetAccum<STRING> @@ids;\nSTRING p = "v1%";\nS = {P.*};\n' +
        'S = SELECT s FROM S:s WHERE s.id LIKE p AND s.id NOT LIKE "%5" ACCUM @@ids += s.id;\nPRINT @@ids.size() AS n;',
    );
    // v1, v10..v19 but v15: 10 of 11.
    assert.deepEqual(s, { n: 10 });
  });

  it('divides INT by INT as whole numbers and keeps FLOAT division exact', () => {
    const [r] = interpret('INT a = 7 / 2; FLOAT b = 7 / 2.0; INT c = -7 % 3;\nPRINT a, b, c, a + b AS s;');
    assert.deepEqual(r, { a: 3, b: 3.5, c: -1, s: 6.5 });
  });

  it('computes FLOAT in 4 bytes and DOUBLE in 8, as TigerGraph does', () => {
    const [r] = interpret(`FLOAT third = 1 / 3.0; DOUBLE exact = 1 / 3.0; INT n = 2;
SumAccum<FLOAT> @@f; SumAccum<DOUBLE> @@d; MaxAccum<FLOAT> @@top;
@@f += 0.1; @@f += 0.2; @@d += 0.1; @@d += 0.2; @@top += exact;
PRINT third, exact, 1 / log10(n) AS adamic_adar, 1 / 3.0 AS literal, @@f, @@d, @@top, third * 3 AS again;`);
    const f = Math.fround;
    assert.deepEqual(r, {
      third: f(1 / 3),
      exact: 1 / 3,
      // log10 answers FLOAT and INT / FLOAT is FLOAT: the algorithm library's adamic-adar baselines.
      adamic_adar: 3.321928024291992,
      literal: 1 / 3,
      '@@f': f(f(0.1) + 0.2),
      '@@d': 0.1 + 0.2,
      '@@top': f(1 / 3),
      again: f(f(1 / 3) * 3),
    });
  });

  it('passes one and two arguments to the math functions in their order', () => {
    const [r] = interpret(`INT two = 2; DOUBLE y = -3.5;
PRINT pow(two, 10) AS p, pow(10, two) AS q, atan2(1, two) AS a, abs(y) AS m, sqrt(16) AS s, floor(y) AS fl;`);
    assert.deepEqual(r, { p: 1024, q: 100, a: Math.fround(Math.atan2(1, 2)), m: 3.5, s: 4, fl: -4 });
  });

  it('adds a list to itself once, whether an accumulator or a variable', () => {
    const [r] = interpret(`ListAccum<INT> @@l; BagAccum<INT> @@b; LIST<INT> v; MapAccum<INT, SumAccum<INT>> @@m;
@@l += 1; @@l += 2; @@l += @@l; @@b += 3; @@b += @@b; v += 4; v += 5; v += v; @@m += (1 -> 1); @@m += @@m;
PRINT @@l, @@b, v, @@m;`);
    assert.deepEqual(r, { '@@l': [1, 2, 1, 2], '@@b': [3, 3], v: [4, 5, 4, 5], '@@m': { 1: 2 } });
  });

  it('refuses a string longer than 16 Mi characters, however it was made', () => {
    for (const loop of [
      'STRING s = "ab"; WHILE TRUE DO s = s + s; END;',
      'SumAccum<STRING> @@s = "ab"; WHILE TRUE DO @@s += @@s; END;',
    ]) {
      const out = runGsql(store, `USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n${loop}\n}`);
      assert.equal(out.ok, false, loop);
      assert.match(out.output, /A string of a query holds at most 16777216 characters, not 33554432\./, loop);
    }
  });

  it('accumulates into every kind of accumulator and prints each in its JSON form', () => {
    const [r] = interpret(`TYPEDEF TUPLE<STRING k, INT v> kv;
SumAccum<INT> @@sum; SumAccum<STRING> @@text; MinAccum<INT> @@min; MaxAccum<FLOAT> @@max; AvgAccum @@avg;
OrAccum @@or; AndAccum @@and; BitwiseOrAccum @@bor; ListAccum<INT> @@list; SetAccum<STRING> @@set;
BagAccum<INT> @@bag; MapAccum<STRING, MaxAccum<INT>> @@map; HeapAccum<kv>(2, v DESC, k ASC) @@heap;
GroupByAccum<STRING g, SumAccum<INT> total, MaxAccum<INT> top> @@groups;
FOREACH i IN RANGE[1, 5] DO
  @@sum += i; @@text += to_string(i); @@min += i; @@max += i * 1.5; @@avg += i; @@or += i > 4; @@and += i > 0;
  @@bor += i; @@list += i; @@set += "s"; @@bag += i % 2; @@map += ("m" -> i); @@heap += kv(to_string(i), i % 3);
  @@groups += (to_string(i % 2) -> i, i);
END;
PRINT @@sum, @@text, @@min, @@max, @@avg, @@or, @@and, @@bor, @@list, @@set, @@bag.size() AS bag, @@map, @@heap,
  @@groups;`);
    assert.deepEqual(r, {
      '@@sum': 15,
      '@@text': '12345',
      '@@min': 1,
      '@@max': 7.5,
      '@@avg': 3,
      '@@or': true,
      '@@and': true,
      '@@bor': '0000000000000000000000000000000000000000000000000000000000000111',
      '@@list': [1, 2, 3, 4, 5],
      '@@set': ['s'],
      bag: 5,
      '@@map': { m: 5 },
      '@@heap': [
        { k: '2', v: 2 },
        { k: '5', v: 2 },
      ],
      '@@groups': [
        { g: '1', total: 9, top: 5 },
        { g: '0', total: 6, top: 4 },
      ],
    });
  });

  it('keeps tuples in sets by content through SetAccum, contains and INTERSECT / UNION / MINUS', () => {
    const [r] = interpret(`TYPEDEF TUPLE<STRING k, INT v> kv;
SetAccum<kv> @@a; SetAccum<kv> @@b; SetAccum<INT> @@n;
@@a += kv("x", 1); @@a += kv("x", 1); @@a += kv("y", 2); @@b += kv("y", 2); @@b += kv("z", 3);
@@n += 1; @@n += 2; @@n += 2;
PRINT @@a.size() AS a, @@a INTERSECT @@b AS both, (@@a UNION @@b).size() AS any, @@a MINUS @@b AS only,
  @@a.contains(kv("x", 1)) AS has_x, @@n.contains(2) AS has_2, @@n.size() AS n;`);
    assert.deepEqual(r, {
      a: 2,
      both: [{ k: 'y', v: 2 }],
      any: 3,
      only: [{ k: 'x', v: 1 }],
      has_x: true,
      has_2: true,
      n: 2,
    });
  });

  it('keeps vertex-attached Sum, Min, Max, Or and And per vertex: declared, empty, added, assigned, primed', () => {
    const [r] = interpret(`SumAccum<INT> @s = 5; MinAccum<INT> @lo; MaxAccum<FLOAT> @hi; OrAccum @any; AndAccum @all;
SumAccum<INT> @@changed;
S = {P.*};
S = SELECT v FROM S:v WHERE v.id == "v1" OR v.id == "v2"
  ACCUM v.@lo += 3, v.@lo += 2, v.@any += FALSE, v.@all += FALSE
  POST-ACCUM v.@s += 1;
S = SELECT v FROM S:v POST-ACCUM v.@s = 10, @@changed += v.@s - v.@s';
U = {P.*};
U = SELECT v FROM U:v WHERE v.id == "v3";
PRINT S[S.@s AS s, S.@lo AS lo, S.@hi AS hi, S.@any AS any, S.@all AS all] AS S,
  U[U.@s AS s, U.@lo AS lo, U.@any AS any, U.@all AS all] AS U, @@changed;`);
    const attrs = (key: string) => (r![key] as PrintedVertex[]).map((v) => [v.v_id, v.attributes]);
    assert.deepEqual(attrs('S'), [
      ['v1', { s: 10, lo: 2, hi: -Number.MAX_VALUE, any: false, all: false }],
      ['v2', { s: 10, lo: 2, hi: -Number.MAX_VALUE, any: false, all: false }],
    ]);
    assert.deepEqual(attrs('U'), [['v3', { s: 5, lo: Number.MAX_VALUE, any: false, all: true }]]);
    assert.equal(r!['@@changed'], 8);

    // A primed Or reads as a BOOL, before and after the block sets it.
    const [o] = interpret(`OrAccum @on; ListAccum<BOOL> @@before; ListAccum<BOOL> @@now;
S = {P.*};
S = SELECT v FROM S:v WHERE v.id == "v1";
S = SELECT v FROM S:v POST-ACCUM v.@on = TRUE, @@before += v.@on', @@now += v.@on;
PRINT @@before, @@now;`);
    assert.deepEqual(o, { '@@before': [false], '@@now': [true] });
  });

  it('starts each run from empty accumulators and unmarked vertices, whatever the run before left', () => {
    // The per-vertex arrays are kept from run to run: nothing of one run may show in the next.
    const query = `SumAccum<INT> @s; MinAccum<INT> @lo; OrAccum @hit; SumAccum<INT> @@before; SumAccum<INT> @@after;
S = {P.*};
T = SELECT t FROM S:s -(E:e)-> P:t ACCUM t.@s += 1, t.@lo += 7, t.@hit += TRUE, @@before += t.@s;
A = SELECT v FROM S:v POST-ACCUM @@after += v.@s;
PRINT T.size() AS reached, @@before, @@after, T[T.@s AS s, T.@lo AS lo, T.@hit AS hit] AS T;`;
    const [first] = interpret(query);
    const indegree = new Map<string, number>();
    for (const [, b] of directed) indegree.set(vid(b), (indegree.get(vid(b)) ?? 0) + 1);
    assert.equal(first!.reached, indegree.size);
    assert.equal(first!['@@before'], 0);
    assert.equal(first!['@@after'], directed.length);
    for (const v of first!.T as PrintedVertex[])
      assert.deepEqual(v.attributes, { s: indegree.get(v.v_id), lo: 7, hit: true });
    for (let i = 0; i < 3; i++) assert.deepEqual(interpret(query)[0], first);
  });

  it('evaluates what an ACCUM adds for each edge walked, and never for a source without one', () => {
    // 10 / s.@out divides by zero for a vertex without out-edges: walking none, it is never asked.
    const [r] = interpret(`SumAccum<INT> @out; SumAccum<INT> @got; SumAccum<INT> @edges;
S = {P.*};
S = SELECT s FROM S:s POST-ACCUM s.@out = s.outdegree("E");
T = SELECT t FROM S:s -(E:e)-> P:t ACCUM t.@got += 10 / s.@out, t.@edges += 1;
PRINT T[T.@got AS got, T.@edges AS edges] AS T;`);
    const out = new Map<number, number>();
    for (const [a] of directed) out.set(a, (out.get(a) ?? 0) + 1);
    assert.ok(out.size < N, 'some vertex has no out-edge');
    const expected = new Map<string, { got: number; edges: number }>();
    for (const [a, b] of directed) {
      const e = expected.get(vid(b)) ?? { got: 0, edges: 0 };
      e.got += Math.trunc(10 / out.get(a)!);
      e.edges += 1;
      expected.set(vid(b), e);
    }
    const printed = r!.T as PrintedVertex[];
    assert.equal(printed.length, expected.size);
    for (const v of printed) assert.deepEqual(v.attributes, expected.get(v.v_id));
  });

  it('keeps to the target types a hop names, whichever way its ACCUM adds', () => {
    const typed = stores.open(`CREATE VERTEX A (PRIMARY_ID id STRING)
CREATE VERTEX B (PRIMARY_ID id STRING)
CREATE DIRECTED EDGE L (FROM A, TO A | FROM A, TO B)
CREATE GRAPH ab (*)`);
    try {
      const edges = { a1: { L: { A: { a2: {} }, B: { b1: {} } } }, a3: { L: { B: { b2: {} } } } };
      const payload = { vertices: { A: { a1: {}, a2: {}, a3: {} }, B: { b1: {}, b2: {} } }, edges: { A: edges } };
      writeUpsert(typed, planUpsert(typed, typed.graph('ab', '/'), payload));
      const run = (accum: string) => {
        const r = runGsql(
          typed,
          `INTERPRET QUERY () FOR GRAPH ab { SumAccum<INT> @n; SumAccum<INT> @@all; S = {A.*};
S = SELECT s FROM S:s -(L:e)-> A:t ACCUM ${accum};
PRINT S;
T = SELECT t FROM S:s -(L:e)-> A:t;
PRINT T[T.@n AS n] AS T; }`,
        );
        assert.ok(r.ok, r.output);
        const [sources, targets] = results(r.output);
        return {
          sources: (sources!.S as PrintedVertex[]).map((v) => v.v_id),
          targets: (targets!.T as PrintedVertex[]).map((v) => [v.v_id, v.attributes.n]),
        };
      };
      // a3 reaches only a B: it is not a source of a match. Both ways of running the ACCUM agree.
      const expected = { sources: ['a1'], targets: [['a2', 1]] };
      assert.deepEqual(run('t.@n += 1'), expected);
      assert.deepEqual(run('t.@n += 1, @@all += 1'), expected);
    } finally {
      typed.close();
    }
  });

  it('runs IF / ELSE IF / ELSE, WHILE with LIMIT, FOREACH with BREAK and CONTINUE, and CASE', () => {
    const [r] = interpret(`ListAccum<STRING> @@seen; INT n = 0;
WHILE TRUE LIMIT 4 DO n = n + 1; END;
FOREACH i IN RANGE[0, 10] DO
  IF i == 2 THEN CONTINUE; ELSE IF i > 5 THEN BREAK; END;
  CASE WHEN i % 2 == 0 THEN @@seen += "even"; ELSE @@seen += "odd"; END;
END;
STRING label = CASE WHEN n > 3 THEN "many" ELSE "few" END;
PRINT n, @@seen, label;`);
    assert.deepEqual(r, { n: 4, '@@seen': ['even', 'odd', 'odd', 'even', 'odd'], label: 'many' });
  });

  it('binds typed parameters with defaults, and reads attributes and DATETIME functions', () => {
    const [r] = interpret(
      `S = {who};
S = SELECT s FROM S:s WHERE s.name == "n" + to_string(k) AND year(s.born) == 2020;
PRINT S.size() AS found, k, names,
  datetime_diff(to_datetime("2020-01-02 03:04:15"), to_datetime("2020-01-02 03:04:05")) AS d;`,
      'VERTEX<P> who, INT k = 4, SET<STRING> names',
    );
    assert.deepEqual(r, { found: 0, k: 4, names: [], d: 10 });
  });

  it('writes attribute updates to the store in one transaction, seen by the REST view', () => {
    gsql(
      store,
      `INTERPRET QUERY () FOR GRAPH g {
  S = {P.*};
  S = SELECT s FROM S:s WHERE s.name == "n1" POST-ACCUM s.rank = 2.5, s.born = to_datetime("2021-05-06 07:08:09");
}`,
    );
    const row = store.db.prepare(`SELECT attrs FROM vertices WHERE id = 'v1'`).pluck().get() as string;
    assert.deepEqual(JSON.parse(row).rank, 2.5);
    assert.equal(JSON.parse(row).born, '2021-05-06 07:08:09');
    const [r] = interpret('S = {P.*}; S = SELECT s FROM S:s WHERE s.rank > 2; PRINT S[S.rank, S.born];');
    assert.deepEqual(r!.S, [
      { v_id: 'v1', v_type: 'P', attributes: { 'S.rank': 2.5, 'S.born': '2021-05-06 07:08:09' } },
    ]);
  });

  it("takes a query's INSERTs and DELETEs into the traversal view at the next query", () => {
    const writes = open();
    try {
      const view = graphView(writes);
      gsql(
        writes,
        `INTERPRET QUERY () FOR GRAPH g {
  A = {P.*};
  INSERT INTO P (PRIMARY_ID, name) VALUES ("nova", "Nova");
  S = SELECT s FROM A:s WHERE s.name == "n3" ACCUM INSERT INTO E (FROM, TO, w) VALUES (s, s, 9);
}`,
      );
      /** The self loops of weight 9 at n3 and the vertices named Nova, as a query sees them. */
      const seen = () => {
        const [r] = results(
          gsql(
            writes,
            `INTERPRET QUERY () FOR GRAPH g {
  S = SELECT t FROM P:s -(E>:e)- P:t WHERE s.name == "n3" AND e.w == 9;
  N = SELECT s FROM P:s WHERE s.name == "Nova";
  PRINT S, N.size() AS nova;
}`,
          ),
        );
        return { loops: (r!.S as PrintedVertex[]).map((v) => v.v_id), nova: r!.nova };
      };
      assert.deepEqual(seen(), { loops: ['v3'], nova: 1 });
      assert.equal(graphView(writes), view, 'the same view, with the inserted rows taken in');
      const built = GraphView.build(writes);
      assert.equal(view.size, built.size);
      assert.equal(view.edgeType.length, built.edgeType.length);
      gsql(
        writes,
        `INTERPRET QUERY () FOR GRAPH g {
  T = SELECT t FROM P:t WHERE t.name == "Nova";
  DELETE t FROM T:t;
  S = SELECT t FROM P:s -(E>:e)- P:t WHERE s.name == "n3" AND e.w == 9 ACCUM DELETE (e);
}`,
      );
      assert.equal(graphView(writes), view, 'the same view, with the deleted rows dropped');
      assert.equal(view.find('P', 'nova'), -1);
      assert.deepEqual(seen(), { loops: [], nova: 0 });
    } finally {
      writes.close();
    }
  });

  it('INSERT INTO writes a vertex (attributes in any order) and an edge; DELETE removes a vertex and its edges', () => {
    const writes = open();
    try {
      gsql(
        writes,
        `INTERPRET QUERY () FOR GRAPH g {
  INSERT INTO P (rank, PRIMARY_ID, name) VALUES (1.5, "new", "Nova");
}`,
      );
      const row = writes.db.prepare(`SELECT attrs FROM vertices WHERE id = 'new'`).pluck().get() as string;
      assert.equal(JSON.parse(row).name, 'Nova');
      assert.equal(JSON.parse(row).rank, 1.5);
      gsql(
        writes,
        `INTERPRET QUERY () FOR GRAPH g {
  A = {P.*};
  S = SELECT s FROM A:s WHERE s.name == "n3" ACCUM INSERT INTO E (FROM, TO, w) VALUES (s, s, 9);
  T = SELECT t FROM A:t WHERE t.name == "n4";
  DELETE t FROM T:t;
}`,
      );
      const edge = writes.db
        .prepare(
          `SELECT attrs FROM edges WHERE from_id = 'v3' AND to_id = 'v3' ` +
            `AND type_id = (SELECT id FROM edge_types WHERE name = 'E')`,
        )
        .pluck()
        .get() as string;
      assert.equal(JSON.parse(edge).w, 9);
      assert.equal(writes.db.prepare(`SELECT count(*) FROM vertices WHERE id = 'v4'`).pluck().get(), 0);
      assert.equal(
        writes.db.prepare(`SELECT count(*) FROM edges WHERE from_id = 'v4' OR to_id = 'v4'`).pluck().get(),
        0,
      );
      // A value of the wrong type is refused as REST++ refuses it, and the run writes nothing.
      const bad = runGsql(
        writes,
        `USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {
  INSERT INTO P (PRIMARY_ID, rank) VALUES ("odd", "high");
  INSERT INTO P (PRIMARY_ID, name) VALUES ("even", "fine");
}`,
      );
      assert.equal(bad.ok, false);
      assert.match(bad.output, /INSERT INTO P: .*rank/);
      assert.equal(writes.db.prepare(`SELECT count(*) FROM vertices WHERE id IN ('odd', 'even')`).pluck().get(), 0);
    } finally {
      writes.close();
    }
  });

  it('takes vertex and edge types from STRING / SET<STRING> parameters, as the algorithm library passes them', () => {
    gsql(
      store,
      `CREATE QUERY param_types(SET<STRING> v_types, SET<STRING> e_types) FOR GRAPH g {
SumAccum<INT> @@hops; SumAccum<INT> @@bits;
start = {v_types};
start = SELECT t FROM start:s -((e_types):e)- v_types:t WHERE s.name == "n1"
        ACCUM INT one = 1, INT two = one << 1, @@hops += two >> 1, @@bits += 1 << 3;
PRINT @@hops, COUNT(start) AS reached, @@bits > 0 AS shifted;
}`,
    );
    const [r] = results(gsql(store, 'RUN QUERY param_types(["P"], ["E", "U"])'));
    const expected =
      directed.filter(([a]) => a === 1).length + undirected.filter(([a, b]) => a === 1 || b === 1).length;
    assert.equal(r!['@@hops'], expected);
    assert.equal(r!.shifted, true);
    assert.ok((r!.reached as number) > 0);
  });

  /** The vertices a query printed under `name`, by number. */
  const printed = (r: Record<string, unknown> | undefined, name = 'S') =>
    new Set((r![name] as PrintedVertex[]).map((v) => Number(v.v_id.slice(1))));
  /** A query body's first lines: `start` holds vertex v<i> alone. */
  const from = (i: number) => `start = SELECT s FROM P:s WHERE s.name == "n${i}";`;
  const outOf = (a: number) => directed.filter(([x]) => x === a).map(([, b]) => b);
  const intoOf = (b: number) => directed.filter(([, y]) => y === b).map(([a]) => a);

  it('reads V2 directions inside a hop, one per edge type', () => {
    const start = 7;
    const both = undirected.flatMap(([a, b]) => (a === start ? [b] : b === start ? [a] : []));
    const run = (hop: string) =>
      printed(interpret(`${from(start)}\nS = SELECT t FROM start:s ${hop} P:t;\nPRINT S;`)[0]);
    assert.ok(outOf(start).length > 0 && intoOf(start).length > 0 && both.length > 0);
    assert.deepEqual(run('-(E>:e)-'), new Set(outOf(start)));
    assert.deepEqual(run('-(E:e)->'), new Set(outOf(start)));
    assert.deepEqual(run('-(<E)-'), new Set(intoOf(start)));
    assert.deepEqual(run('-((<E|U):e)-'), new Set([...intoOf(start), ...both]));
    assert.deepEqual(run('-(E>|<E)-'), new Set([...outOf(start), ...intoOf(start)]));
  });

  it('matches a V2 path of two hops: each walk along them is a row of ACCUM', () => {
    const start = 3;
    const rows: [number, number][] = [];
    for (const m of outOf(start)) for (const t of outOf(m)) rows.push([m, t]);
    assert.ok(rows.length > 1);
    const [r] = interpret(`SumAccum<INT> @@rows; SumAccum<INT> @paths; SetAccum<STRING> @@middles;
${from(start)}
S = SELECT t FROM start:s -(E>:e1)- P:m -(E>:e2)- P:t
    ACCUM @@rows += 1, t.@paths += 1, @@middles += m.name
    POST-ACCUM m.@paths += 100;
PRINT @@rows, @@middles, S[S.@paths];`);
    assert.equal(r!['@@rows'], rows.length);
    assert.deepEqual(new Set(r!['@@middles'] as string[]), new Set(rows.map(([m]) => `n${m}`)));
    const paths = new Map<number, number>();
    for (const [, t] of rows) paths.set(t, (paths.get(t) ?? 0) + 1);
    const got = new Map((r!.S as PrintedVertex[]).map((v) => [Number(v.v_id.slice(1)), v.attributes['S.@paths']]));
    // POST-ACCUM ran once per middle vertex, whatever the number of rows through it.
    const middles = new Set(rows.map(([m]) => m));
    for (const [t, n] of paths) assert.equal(got.get(t), n + (middles.has(t) ? 100 : 0), `v${t}`);
    assert.equal(got.size, paths.size);
    // An edge alias after a vertex without one: E's weight is the sum of its two ends.
    const [w] = interpret(`SumAccum<DOUBLE> @@w;
${from(start)}
S = SELECT t FROM start:s -(E>)- P -(E>:e2)- P:t ACCUM @@w += e2.w;
PRINT @@w;`);
    assert.equal(
      w!['@@w'],
      rows.reduce((sum, [m, t]) => sum + m + t, 0),
    );
  });

  it('never takes an edge twice in a path: s -(U)- m -(U)- t does not go back along the first edge', () => {
    const start = undirected[0]![0];
    const edgesOf = (v: number) => undirected.map((e, i) => ({ e, i })).filter(({ e }) => e.includes(v));
    const other = ([a, b]: [number, number], v: number) => (a === v ? b : a);
    let rows = 0;
    const back = new Set<number>();
    for (const first of edgesOf(start)) {
      const m = other(first.e, start);
      for (const second of edgesOf(m)) {
        if (second.i === first.i) continue;
        rows++;
        back.add(other(second.e, m));
      }
    }
    const [r] = interpret(`SumAccum<INT> @@rows;
${from(start)}
S = SELECT t FROM start:s -(U)- P:m -(U)- P:t ACCUM @@rows += 1;
PRINT @@rows, S;`);
    assert.ok(!back.has(start), 'no two edges join the same two vertices here');
    assert.equal(r!['@@rows'], rows);
    assert.deepEqual(printed(r), back);
    // An undirected edge prints from the vertex it was walked from: here the unaliased middle one.
    const [e] = interpret(`SetAccum<EDGE> @@second;
${from(start)}
S = SELECT t FROM start:s -(U)- P -(U:e2)- P:t ACCUM @@second += e2;
PRINT @@second;`);
    const middles = new Set(edgesOf(start).map(({ e }) => `v${other(e, start)}`));
    const second = e!['@@second'] as { from_id: string; to_id: string }[];
    assert.ok(second.length > 0);
    for (const edge of second) assert.ok(middles.has(edge.from_id), `${edge.from_id} -> ${edge.to_id}`);
  });

  it('filters a path with WHERE over its aliases before ACCUM reads what it writes', () => {
    const keptOf = (s: number) =>
      outOf(s).flatMap((m) =>
        outOf(m)
          .filter((t) => t !== s && t !== m)
          .map((t) => [m, t]),
      );
    // A start from which some t is reached by two paths: the second must not be filtered out.
    const start = Array.from({ length: N }, (_, i) => i).find((i) => {
      const targets = keptOf(i).map(([, t]) => t);
      return new Set(targets).size < targets.length;
    })!;
    const kept = keptOf(start);
    const [r] = interpret(`SumAccum<INT> @seen; SumAccum<INT> @@rows;
${from(start)}
S = SELECT t FROM start:s -(E>)- P:m -(E>)- P:t
    WHERE t != s AND t != m AND t.@seen == 0
    ACCUM t.@seen += 1, @@rows += 1;
PRINT @@rows, S;`);
    // The WHERE reads @seen as it was before the clause: every row is kept, however many reach t.
    assert.equal(r!['@@rows'], kept.length);
    assert.deepEqual(printed(r), new Set(kept.map(([, t]) => t)));
  });

  /**
   * The shortest walks from `src` with between `min` and `max` steps along `next`, by brute force:
   * the number of walks of each length into each vertex, and for each vertex the first length
   * within the bounds that reaches it.
   */
  const shortestWalks = (src: number, min: number, max: number, next: (v: number) => number[]) => {
    const found = new Map<number, number>();
    let layer = new Map([[src, 1]]);
    for (let k = 0; k <= Math.min(max, 4 * N) && layer.size > 0; k++) {
      if (k >= min) for (const [v, walks] of layer) if (!found.has(v)) found.set(v, walks);
      const after = new Map<number, number>();
      for (const [v, walks] of layer) for (const w of next(v)) after.set(w, (after.get(w) ?? 0) + walks);
      layer = after;
    }
    return found;
  };
  const neighboursOf = (v: number) => undirected.flatMap(([a, b]) => (a === v ? [b] : b === v ? [a] : []));

  it('repeats a V2 hop with its bounds, one row per shortest walk to each end', () => {
    const start = 3;
    const rowsTo = (hop: string, ends = 'P:t') => {
      const [r] = interpret(`SumAccum<INT> @rows;
${from(start)}
S = SELECT t FROM start:s ${hop} ${ends} ACCUM t.@rows += 1;
PRINT S[S.@rows];`);
      return new Map(
        (r!.S as PrintedVertex[]).map((v) => [Number(v.v_id.slice(1)), v.attributes['S.@rows'] as number]),
      );
    };
    const cases: [string, number, number, (v: number) => number[]][] = [
      ['-(E>*)-', 0, Infinity, outOf],
      ['-(E>*1..)-', 1, Infinity, outOf],
      ['-(E>*2)-', 2, 2, outOf],
      ['-(<E*..2)-', 0, 2, intoOf],
      ['-((E>|<E)*1..3)-', 1, 3, (v) => [...outOf(v), ...intoOf(v)]],
      // A lower bound past the nearest: back and forth along an undirected edge is a walk too.
      ['-(U*2..3)-', 2, 3, neighboursOf],
    ];
    for (const [hop, min, max, next] of cases) {
      const expected = shortestWalks(start, min, max, next);
      assert.ok(expected.size > 1, `${hop}: ${expected.size}`);
      assert.deepEqual(rowsTo(hop), expected, hop);
    }
    // Some end is reached by more than one shortest walk, and makes as many rows.
    assert.ok([...shortestWalks(start, 1, 3, (v) => [...outOf(v), ...intoOf(v)]).values()].some((w) => w > 1));
    // The zero-length walk reaches the source itself; with a lower bound of one only a cycle does.
    assert.equal(rowsTo('-(E>*)-').get(start), 1);
    assert.equal(rowsTo('-(U*2..3)-').get(start), neighboursOf(start).length);
  });

  it('repeats a hop inside a longer path or a chain of hops; refuses an alias or bounds the wrong way round', () => {
    const start = 5;
    const [r] = interpret(`SumAccum<INT> @@rows;
${from(start)}
S = SELECT t FROM start:s -(E>*1..2)- P:m -(U)- P:t ACCUM @@rows += 1;
PRINT @@rows, S;`);
    const middles = shortestWalks(start, 1, 2, outOf);
    let rows = 0;
    const ends = new Set<number>();
    for (const [m, walks] of middles)
      for (const t of neighboursOf(m)) {
        rows += walks;
        ends.add(t);
      }
    assert.ok(rows > 0);
    assert.equal(r!['@@rows'], rows);
    assert.deepEqual(printed(r), ends);
    // Hops joined with `.` are the same path through vertices left unnamed.
    const [joined] = interpret(`SumAccum<INT> @@rows;
${from(start)}
S = SELECT t FROM start:s -(E>*1..2.U)- P:t ACCUM @@rows += 1;
PRINT @@rows, S;`);
    assert.deepEqual(joined, r);
    for (const [hop, column, token] of [
      ['-(E>.U:e)-', 31, ':'],
      ['-(E>*1..2:e)-', 34, ':'],
      ['-(E>*3..1)-', 33, '1'],
    ] as const) {
      const bad = runGsql(
        store,
        `USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n  S = {P.*};\n  S = SELECT t FROM S:s ${hop} P:t;\n}`,
      );
      assert.equal(bad.ok, false, hop);
      assert.match(bad.output, new RegExp(`Syntax Error: Encountered "${token}" at line 4, column ${column}\\.`), hop);
    }
  });

  it('samples a number or a share of the edges of each source, or into each target, where WHEN holds', () => {
    const rowsPer = (sample: string, by: 's' | 't' = 's') => {
      const [r] = interpret(`SumAccum<INT> @rows;
S = {P.*};
S = SELECT t FROM S:s -(E>:e)- P:t ${sample} ACCUM ${by}.@rows += 1;
A = {P.*};
PRINT A[A.@rows];`);
      return new Map(
        (r!.A as PrintedVertex[]).map((v) => [Number(v.v_id.slice(1)), v.attributes['A.@rows'] as number]),
      );
    };
    const out = (v: number) => outOf(v).length;
    const into = (v: number) => intoOf(v).length;
    const all = Array.from({ length: N }, (_, v) => v);
    assert.ok(all.some((v) => out(v) >= 3) && all.some((v) => out(v) > 0 && out(v) < 3));
    const two = rowsPer('SAMPLE 2 EDGE WHEN s.outdegree("E") >= 3');
    for (const v of all) assert.equal(two.get(v), out(v) >= 3 ? 2 : out(v), `v${v}`);
    const half = rowsPer('SAMPLE 50% EDGE WHEN s.outdegree("E") >= 1');
    for (const v of all) assert.equal(half.get(v), Math.round(out(v) / 2), `v${v}`);
    const one = rowsPer('SAMPLE 1 TARGET WHEN TRUE', 't');
    for (const v of all) assert.equal(one.get(v), Math.min(1, into(v)), `v${v}`);
    for (const [sample, message] of [
      ['SAMPLE 0 EDGE WHEN TRUE', /SAMPLE takes a positive whole number, not 0/],
      ['SAMPLE 2 WHEN TRUE', /Syntax Error: Encountered "WHEN" at line 3, column 45\./],
    ] as const) {
      const bad = runGsql(
        store,
        `USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n  S = SELECT t FROM P:s -(E>)- P:t ${sample};\n}`,
      );
      assert.equal(bad.ok, false, sample);
      assert.match(bad.output, message);
    }
    const path = runGsql(
      store,
      'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n' +
        '  S = SELECT t FROM P:s -(E>)- P -(E>)- P:t SAMPLE 1 EDGE WHEN TRUE;\n}',
    );
    assert.equal(path.ok, false);
    assert.match(path.output, /Semantic Check Fails: SAMPLE applies to a SELECT of one hop \(line 3, column 7\)/);
  });

  it('stops a path at the timeout by the edges it looks at, even when none of them makes a row', () => {
    // No target type at all: every walk ends at the last hop, and no row is ever made. A repeated
    // hop counts the edges it looks at too.
    for (const pattern of ['-(E>)- P -(E>)- P -(E>)-', '-((E>|<E|U)*2..)-']) {
      const r = runGsql(
        store,
        'USE GRAPH g\nINTERPRET QUERY (SET<STRING> none) FOR GRAPH g {\n  S = {P.*};\n' +
          `  S = SELECT t FROM S:s ${pattern} none:t;\n  PRINT S.size() AS n;\n}`,
        { timeoutMs: 0 },
      );
      assert.equal(r.ok, false, pattern);
      assert.match(r.output, /did not finish within its timeout of 0 ms/);
    }
  });

  it('keeps 64 bits in a bitwise accumulator, prints them as bits and reads them as an INT', () => {
    const [r, methods] =
      interpret(`BitwiseAndAccum @@and; BitwiseOrAccum @@or; BitwiseOrAccum @@wide; BitwiseOrAccum @@m;
@@and += 170; @@and += 85;
@@or += 170; @@or += 85;
@@wide += 4294967296; @@wide += 1;
PRINT @@and, @@or, @@wide, @@wide + 0 AS wide_int, @@or + 1 AS or_int;
@@m.set(); @@m.set(0, FALSE); @@m.flip(63); @@m.flip(1, 4);
PRINT @@m, @@m.cardinality() AS ones, @@m.get(62) AS b62, @@m.get(63) AS b63;`);
    const bits = (n: bigint) => n.toString(2).padStart(64, '0');
    assert.deepEqual(r, {
      '@@and': bits(0n),
      '@@or': bits(255n),
      '@@wide': bits(4294967297n),
      wide_int: 4294967297,
      or_int: 256,
    });
    // All ones, then bit 0 cleared, bit 63 flipped off, bits 1 to 3 flipped off.
    assert.deepEqual(methods, { '@@m': `0${'1'.repeat(59)}0000`, ones: 59, b62: 1, b63: 0 });
  });

  it('keeps an ArrayAccum of each element type and works on its elements in one and two dimensions', () => {
    // TigerGraph's reference example of element-level operations (its BagAccum holds INT here).
    const [r] = interpret(`ArrayAccum<SumAccum<DOUBLE>> @@sum_d[2][2];
ArrayAccum<SumAccum<STRING>> @@sum_s[2][2];
ArrayAccum<MaxAccum<INT>> @@max[2]; ArrayAccum<MinAccum<UINT>> @@min[2]; ArrayAccum<AvgAccum> @@avg[2];
ArrayAccum<AndAccum<BOOL>> @@and[2]; ArrayAccum<OrAccum<BOOL>> @@or[2];
ArrayAccum<BitwiseAndAccum> @@bit_and[2]; ArrayAccum<BitwiseOrAccum> @@bit_or[2];
ArrayAccum<ListAccum<INT>> @@list[2][2]; ArrayAccum<SetAccum<FLOAT>> @@set[2]; ArrayAccum<BagAccum<INT>> @@bag[2];
ListAccum<STRING> @@words; BOOL toggle = false;
@@words += "1st"; @@words += "2nd"; @@words += "3rd"; @@words += "4th";
FOREACH i IN RANGE [0, 1] DO
  FOREACH n IN RANGE [1, 2] DO
    toggle = NOT toggle;
    @@max[i] += i * 2 + n; @@min[i] += i * 2 + n; @@avg[i] += i * 2 + n;
    @@and[i] += toggle; @@or[i] += toggle;
    @@bit_and[i] += i * 2 + n; @@bit_or[i] += i * 2 + n;
    @@set[i] += (i * 2 + n) / 0.9; @@bag[i] += (i * 2 + n) % 2;
    FOREACH j IN RANGE [0, 1] DO
      @@sum_d[i][j] += (j * 4 + i * 2 + n) / 0.9;
      @@sum_s[i][j] += @@words.get((j * 2 + i + n) % 4);
      @@list[i][j] += j * 4 + i * 2 + n;
    END;
  END;
END;
PRINT @@sum_d, @@sum_s, @@max, @@min, @@avg, @@and, @@or, @@bit_and, @@bit_or, @@list, @@set, @@bag,
  @@sum_d[1][0] AS one_zero, @@list[1][1].size() AS list_size, @@set[0].contains(1 / 0.9) AS has, @@list.size() AS n;`);
    const d = (...xs: number[]) => xs.reduce((a, x) => a + x / 0.9, 0);
    const bits = (n: number) => n.toString(2).padStart(64, '0');
    assert.deepEqual(r, {
      '@@sum_d': [
        [d(1, 2), d(5, 6)],
        [d(3, 4), d(7, 8)],
      ],
      '@@sum_s': [
        ['2nd3rd', '4th1st'],
        ['3rd4th', '1st2nd'],
      ],
      '@@max': [2, 4],
      '@@min': [1, 3],
      '@@avg': [1.5, 3.5],
      '@@and': [false, false],
      '@@or': [true, true],
      '@@bit_and': [bits(0), bits(0)],
      '@@bit_or': [bits(3), bits(7)],
      '@@list': [
        [
          [1, 2],
          [5, 6],
        ],
        [
          [3, 4],
          [7, 8],
        ],
      ],
      '@@set': [
        [1 / 0.9, 2 / 0.9],
        [3 / 0.9, 4 / 0.9],
      ],
      '@@bag': [
        [1, 0],
        [1, 0],
      ],
      one_zero: d(3, 4),
      list_size: 2,
      has: true,
      n: 4,
    });
  });

  it('reallocates an ArrayAccum and assigns, adds and accumulates whole arrays', () => {
    // TigerGraph's reference example, run with lenA = 3: `=` takes the other array's shape.
    const [initial, assigned, accumulated, added] = interpret(
      `ArrayAccum<SumAccum<INT>> @@a[5]; ArrayAccum<SumAccum<INT>> @@b[2]; ArrayAccum<SumAccum<INT>> @@c[][];
@@a.reallocate(len); @@b.reallocate(len + 1); @@c.reallocate(len, len + 1);
FOREACH i IN RANGE[0, len - 1] DO
  @@a[i] += i * i;
  FOREACH j IN RANGE[0, len] DO @@c[i][j] += j * 10 + i; END;
END;
FOREACH i IN RANGE[0, len] DO @@b[i] += 100 - i; END;
PRINT @@a, @@b, @@c, @@c.size() AS size;
@@a = @@c; @@c = @@b;
PRINT @@a, @@c;
@@b += @@c;
PRINT @@b, @@c;
@@a = @@b + @@c;
PRINT @@a, @@a.size() AS size;`,
      'INT len = 3',
    );
    const c = [
      [0, 10, 20, 30],
      [1, 11, 21, 31],
      [2, 12, 22, 32],
    ];
    assert.deepEqual(initial, { '@@a': [0, 1, 4], '@@b': [100, 99, 98, 97], '@@c': c, size: 12 });
    assert.deepEqual(assigned, { '@@a': c, '@@c': [100, 99, 98, 97] });
    assert.deepEqual(accumulated, { '@@b': [200, 198, 196, 194], '@@c': [100, 99, 98, 97] });
    assert.deepEqual(added, { '@@a': [300, 297, 294, 291], size: 4 });
  });

  it('keeps a vertex-attached ArrayAccum per vertex and holds back its += while the ACCUM reads it', () => {
    const [r] =
      interpret(`ArrayAccum<SumAccum<INT>> @by_type[3]; SumAccum<INT> @@read; ArrayAccum<SumAccum<INT>> @@total[3];
All = {P.*};
X = SELECT s FROM All:s -(<E)- P ACCUM s.@by_type[2] += 1;
S = SELECT s FROM All:s -(:e)- :t
    ACCUM CASE e.type
            WHEN "E" THEN s.@by_type[0] += 1
            WHEN "U" THEN s.@by_type[1] += 1
          END,
          @@read += s.@by_type[0] + s.@by_type[1] + s.@by_type[2],
          @@total[0] += 1, @@read += @@total[0]
    ORDER BY s.name LIMIT 3;
PRINT S[S.@by_type], @@read, @@total;`);
    const count = (v: number) => [
      directed.filter(([a]) => a === v).length,
      undirected.filter(([a, b]) => a === v || b === v).length,
      directed.filter(([, b]) => b === v).length,
    ];
    const printed = (r!.S as PrintedVertex[]).map((v) => [v.v_id, v.attributes['S.@by_type']]);
    const expected = Array.from({ length: N }, (_, v) => [vid(v), `n${v}`, count(v)] as const)
      .filter(([, , c]) => c[0]! + c[1]! > 0)
      .sort((a, b) => (a[1] < b[1] ? -1 : 1))
      .slice(0, 3)
      .map(([id, , c]) => [id, c]);
    assert.deepEqual(printed, expected);
    // Every read in the ACCUM saw the arrays as they were before it: of @by_type only the in-edges
    // the first SELECT counted, and of @@total nothing.
    const rows = Array.from({ length: N }, (_, v) => count(v));
    const read = rows.reduce((sum, [out, und, inE]) => sum + (out! + und!) * inE!, 0);
    assert.ok(read > 0);
    assert.equal(r!['@@read'], read);
    assert.deepEqual(r!['@@total'], [directed.length + undirected.length * 2, 0, 0]);
  });

  it("reads a collection accumulator's `@acc'` as it was before the block, not as the block left it", () => {
    const [r] = interpret(`ListAccum<INT> @l; SetAccum<INT> @s; MapAccum<STRING, ListAccum<INT>> @m;
ArrayAccum<SumAccum<INT>> @a[2]; SumAccum<INT> @n;
S = {P.*};
S = SELECT s FROM S:s WHERE s.name == "n1";
FOREACH i IN RANGE[1, 3] DO
  S = SELECT s FROM S:s POST-ACCUM s.@l += i, s.@s += i, s.@m += ("k" -> i), s.@a[1] += i, s.@n += i;
END;
PRINT S[S.@l', S.@l, S.@s', S.@m', S.@m, S.@a', S.@a, S.@n'];`);
    assert.deepEqual((r!.S as PrintedVertex[])[0]!.attributes, {
      "S.@l'": [1, 2],
      'S.@l': [1, 2, 3],
      "S.@s'": [1, 2],
      "S.@m'": { k: [1, 2] },
      'S.@m': { k: [1, 2, 3] },
      "S.@a'": [0, 3],
      'S.@a': [0, 6],
      "S.@n'": 3,
    });
  });

  it('refuses a wrong ArrayAccum with the line and column, and an index out of range when it runs', () => {
    const heap = runGsql(
      store,
      'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n  ArrayAccum<MapAccum<INT, INT>> @@m[2];\n}',
    );
    assert.equal(heap.ok, false);
    assert.match(heap.output, /Syntax Error: Encountered "MapAccum" at line 3, column 14\./);
    const undimensioned = runGsql(
      store,
      'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n  ArrayAccum<SumAccum<INT>> @@a;\n}',
    );
    assert.equal(undimensioned.ok, false);
    assert.match(undimensioned.output, /Syntax Error: Encountered ";" at line 3, column 32\./);
    const indices = runGsql(
      store,
      'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n  ArrayAccum<SumAccum<INT>> @@a[2][2];\n  @@a[1] += 1;\n}',
    );
    assert.equal(indices.ok, false);
    assert.match(indices.output, /Semantic Check Fails: The ArrayAccum @@a has 2 dimension\(s\): give one index each/);
    assert.match(indices.output, /line 4, column 3/);
    for (const [body, message] of [
      ['@@a[3] += 1;', /ArrayAccum index 3 is out of range: the dimension's size is 3/],
      ['@@a.reallocate(1, 2);', /reallocate\(\) of an ArrayAccum of 1 dimension\(s\) takes as many sizes, not 2/],
      ['@@a += @@b;', /The ArrayAccums differ in size: \[3\] and \[2\]/],
      ['@@a.reallocate(2000000);', /An ArrayAccum holds at most 1048576 elements, not 2000000/],
    ] as const) {
      const r = runGsql(
        store,
        `USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n  ArrayAccum<SumAccum<INT>> @@a[3], @@b[2];\n  ${body}\n}`,
      );
      assert.equal(r.ok, false, body);
      assert.match(r.output, message);
    }
  });

  it('refuses a SELECT of no alias of the path, and a direction on an undirected edge type', () => {
    const stray = runGsql(
      store,
      'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n  S = {P.*};\n  S = SELECT x FROM S:s -(E>)- P:m -(E>)- P:t;\n}',
    );
    assert.equal(stray.ok, false);
    assert.match(stray.output, /Semantic Check Fails: The SELECT output x is not a vertex alias of its FROM clause/);
    const directed = runGsql(
      store,
      'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n  S = {P.*};\n  S = SELECT t FROM S:s -(E>|U>)- P:t;\n}',
    );
    assert.equal(directed.ok, false);
    assert.match(
      directed.output,
      /Semantic Check Fails: The edge type U is undirected: name it without > or < \(line 4, column 7\)/,
    );
  });

  it('names the line and column of a syntax error, and runs nothing of the request', () => {
    const r = runGsql(store, 'USE GRAPH g\nCREATE QUERY broken() FOR GRAPH g {\n  INT x = ;\n}');
    assert.equal(r.ok, false);
    assert.match(r.output, /Syntax Error: Encountered ";" at line 3, column 11\./);
    assert.match(r.output, /__GSQL__RETURN__CODE__,211/);
  });

  it('refuses a query that names what the graph does not have, with its line and column', () => {
    const r = runGsql(store, 'USE GRAPH g\nCREATE QUERY bad() FOR GRAPH g {\n  S = {Nope.*};\n  PRINT S;\n}');
    assert.equal(r.ok, false);
    assert.match(r.output, /Semantic Check Fails: The vertex type Nope is not in graph g \(line 3, column 7\)/);
  });

  it('stops a runaway WHILE at the timeout with an error', () => {
    const started = performance.now();
    const r = runGsql(
      store,
      'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g { INT n = 0; WHILE TRUE DO n = n + 1; END; }',
      {
        timeoutMs: 150,
      },
    );
    assert.equal(r.ok, false);
    assert.match(r.output, /did not finish within its timeout of 150 ms/);
    assert.ok(performance.now() - started < 5000);
  });

  it('declares a FILE with an empty path without opening it; println on such a FILE fails', () => {
    const [r] = interpret(
      `FILE f (path);
IF path != "" THEN f.println("never"); END;
PRINT path;`,
      'STRING path = ""',
    );
    assert.deepEqual(r, { path: '' });
    const failed = runGsql(store, 'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g { FILE f (""); f.println("x"); }');
    assert.equal(failed.ok, false);
    assert.match(failed.output, /println\(\) on a FILE declared with an empty path/);
  });

  it('prints only what a PRINT … WHERE holds for: the statement, or the vertices of the set it names', () => {
    const r = interpret(`INT x = 3;
S = {P.*};
S = SELECT s FROM S:s WHERE s.name == "n1" OR s.name == "n2" OR s.name == "n3";
PRINT x WHERE x < 0;
PRINT x WHERE x > 0;
PRINT S[S.name] WHERE S.name != "n2";
PRINT S, x WHERE S.name == "n3";`);
    assert.equal(r.length, 3);
    assert.deepEqual(r[0], { x: 3 });
    const projected = (r[1]!.S as PrintedVertex[]).map((v) => [v.v_id, v.attributes]);
    assert.deepEqual(
      projected.sort(([a], [b]) => String(a).localeCompare(String(b))),
      [
        ['v1', { 'S.name': 'n1' }],
        ['v3', { 'S.name': 'n3' }],
      ],
    );
    assert.deepEqual(
      (r[2]!.S as PrintedVertex[]).map((v) => [v.v_id, v.attributes.name]),
      [['v3', 'n3']],
    );
    assert.equal(r[2]!.x, 3);
  });

  it('writes PRINT … TO_CSV and println as lines of a file in the folder, fields by commas, lists by spaces', () => {
    const folder = dataFolder(store);
    const [r, ...rest] = interpret(`SetAccum<INT> @@ids; ListAccum<STRING> @@names; INT x = 3;
FILE f ("csv/print.csv");
S = {P.*};
S = SELECT s FROM S:s WHERE s.name == "n1" OR s.name == "n2" ACCUM @@names += s.name ORDER BY s.name;
@@ids += 1; @@ids += 2;
PRINT @@ids, x TO_CSV f;
PRINT x WHERE x < 0 TO_CSV f;
PRINT S.name, x TO_CSV f;
PRINT S.name WHERE S.name == "n2" TO_CSV f;
f.println("end", @@names, S.size());
PRINT "again" TO_CSV "csv/second.csv";
PRINT "twice" TO_CSV "csv/second.csv";
PRINT 1 AS one;`);
    // Only the PRINT without TO_CSV is in the results.
    assert.deepEqual([r, ...rest], [{ one: 1 }]);
    const names = ['n1', 'n2'];
    assert.equal(
      fs.readFileSync(path.join(folder, 'csv/print.csv'), 'utf8'),
      `1 2,3\n${names.join('\n')},3\nn2\nend,${[...names].sort().join(' ')},2\n`,
    );
    assert.equal(fs.readFileSync(path.join(folder, 'csv/second.csv'), 'utf8'), 'again\ntwice\n');
    for (const [body, message] of [
      ['PRINT S TO_CSV f;', /Semantic Check Fails: A vertex set cannot be printed TO_CSV.*\(line 5, column 9\)/],
      ['PRINT 1 TO_CSV "../outside.csv";', /The file path '..\/outside.csv' is outside the workspace's file folder/],
    ] as const) {
      const bad = runGsql(
        store,
        `USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g {\n  FILE f ("csv/bad.csv");\n  S = {P.*};\n  ${body}\n}`,
      );
      assert.equal(bad.ok, false, body);
      assert.match(bad.output, message);
    }
    assert.ok(!fs.existsSync(path.join(folder, '../outside.csv')));
  });

  it('walks every edge type for an empty edge pattern -()- and -(:e)-, as for -(_)-', () => {
    const [r] = interpret(`SumAccum<INT> @@edges;
S = {P.*};
S = SELECT s FROM S:s WHERE s.name == "n3";
T = SELECT t FROM S:s -()- :t;
A = SELECT t FROM S:s -(:e)- :t ACCUM @@edges += 1;
U = SELECT t FROM S:s -(_)- :t;
PRINT T.size() AS n, A.size() AS a, U.size() AS u, @@edges;`);
    // Directed E is walked forward, undirected U both ways.
    const out = directed.filter(([a]) => a === 3).map(([, b]) => b);
    const und = undirected.flatMap(([a, b]) => (a === 3 ? [b] : b === 3 ? [a] : []));
    const n = new Set([...out, ...und]).size;
    assert.deepEqual(r, { n, a: n, u: n, '@@edges': out.length + und.length });
  });

  it('reads ELSE IF as the next branch, or as an ELSE holding an IF when that IF has its own END', () => {
    const [r] = interpret(`ListAccum<STRING> @@seen;
FOREACH i IN RANGE[0, 3] DO
  IF i == 0 THEN
    @@seen += "zero";
  ELSE
    IF i == 1 THEN
      @@seen += "one";
    END;
    IF i > 1 THEN @@seen += "many"; ELSE IF i == 1 THEN @@seen += "branch"; END;
  END;
END;
PRINT @@seen;`);
    assert.deepEqual(r, { '@@seen': ['zero', 'one', 'branch', 'many', 'many'] });
    const stray = runGsql(store, 'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g { INT n = 0; END; PRINT n; }');
    assert.equal(stray.ok, false);
    assert.match(stray.output, /Syntax Error: Encountered "END" at line 2, column 45\./);
  });

  it('prints an edge as TigerGraph does: e_type, directed, both ends and its attributes', () => {
    const [a, b] = directed[0]!;
    const [r] = interpret(`SetAccum<EDGE> @@es;
S = {P.*};
S = SELECT s FROM S:s WHERE s.name == "n${a}";
S = SELECT t FROM S:s -(E:e)-> P:t WHERE t.name == "n${b}" ACCUM @@es += e;
PRINT @@es;`);
    assert.deepEqual(r, {
      '@@es': [
        {
          e_type: 'E',
          directed: true,
          from_id: vid(a),
          from_type: 'P',
          to_id: vid(b),
          to_type: 'P',
          attributes: { w: a + b },
        },
      ],
    });
  });

  it('prints an undirected edge from the vertex it was walked from: both walks are two values of a set', () => {
    const [a, b] = undirected[0]!;
    const [r] = interpret(`SetAccum<EDGE> @@es;
S = {P.*};
S = SELECT s FROM S:s -(U:e)- P:t
    WHERE (s.name == "n${a}" AND t.name == "n${b}") OR (s.name == "n${b}" AND t.name == "n${a}")
    ACCUM @@es += e, @@es += e;
PRINT @@es;`);
    const edge = (x: number, y: number) => ({
      e_type: 'U',
      directed: false,
      from_id: vid(x),
      from_type: 'P',
      to_id: vid(y),
      to_type: 'P',
      attributes: {},
    });
    const printed = (r!['@@es'] as { from_id: string }[]).sort((x, y) => x.from_id.localeCompare(y.from_id));
    const expected = [edge(a, b), edge(b, a)].sort((x, y) => x.from_id.localeCompare(y.from_id));
    assert.deepEqual(printed, expected);
  });

  it('reads an edge attribute named at run time with getAttr, and refuses one the edge type lacks', () => {
    const [a] = directed[0]!;
    const sum = directed.filter(([x]) => x === a).reduce((n, [x, y]) => n + x + y, 0);
    const [r] = interpret(
      `SumAccum<FLOAT> @@total;
S = {P.*};
S = SELECT s FROM S:s WHERE s.name == "n${a}";
S = SELECT t FROM S:s -(E:e)-> P:t ACCUM @@total += e.getAttr(attr, "FLOAT");
PRINT @@total;`,
      'STRING attr = "w"',
    );
    assert.deepEqual(r, { '@@total': sum });
    const failed = runGsql(
      store,
      'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g { SumAccum<FLOAT> @@t; S = {P.*};\n' +
        'S = SELECT t FROM S:s -(U:e)- P:t ACCUM @@t += e.getAttr("w", "FLOAT"); }',
    );
    assert.equal(failed.ok, false);
    assert.match(failed.output, /The attribute w does not exist on the edge type U\./);
  });

  it('counts an undirected self-loop once in outdegree', () => {
    const loops = open();
    try {
      gsql(
        loops,
        `INTERPRET QUERY () FOR GRAPH g {
  A = {P.*};
  S = SELECT s FROM A:s WHERE s.name == "n0" ACCUM INSERT INTO U (FROM, TO) VALUES (s, s);
}`,
      );
      const [r] = results(
        gsql(
          loops,
          `INTERPRET QUERY (STRING u = "U") FOR GRAPH g {
  SumAccum<INT> @@fixed; SumAccum<INT> @@named;
  A = {P.*};
  S = SELECT s FROM A:s WHERE s.name == "n0" ACCUM @@fixed += s.outdegree("U"), @@named += s.outdegree(u);
  PRINT @@fixed, @@named;
}`,
        ),
      );
      const d = undirected.filter(([a, b]) => a === 0 || b === 0).length + 1;
      assert.deepEqual(r, { '@@fixed': d, '@@named': d });
    } finally {
      loops.close();
    }
  });

  it('RAISE stops the query, and TRY … EXCEPTION catches it', () => {
    const [r] = interpret(`EXCEPTION too_big(40001);
STRING caught = "no";
TRY RAISE too_big("over"); EXCEPTION WHEN too_big THEN caught = "yes"; END;
PRINT caught;`);
    assert.deepEqual(r, { caught: 'yes' });
    const failed = runGsql(
      store,
      'USE GRAPH g\nINTERPRET QUERY () FOR GRAPH g { EXCEPTION e1(40002); RAISE e1("stop"); }',
    );
    assert.equal(failed.ok, false);
    assert.match(failed.output, /40002: stop/);
  });
});
