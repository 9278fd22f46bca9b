import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import { deleteEdges, queryEdges, readEdgeQuery, viewsFrom, type EdgeSelection } from './edge-ops.js';
import { DataPlaneError } from './errors.js';
import { GraphStore } from './graph-store.js';
import { runGsql } from './gsql-runner.js';
import { planUpsert } from './upsert-plan.js';
import { writeUpsert, type UpsertOptions } from './upsert-write.js';
import { growthExponent, LINEAR_EXPONENT } from '../../test/helpers/growth.js';
import { countVertices, deleteVertex, getVertex, readVertexQuery, vertexBatches } from './vertex-ops.js';

const schema = `
CREATE VERTEX Person (PRIMARY_ID name STRING, age INT DEFAULT 18, points UINT, joined DATETIME, vip BOOL)
CREATE VERTEX Company (id UINT PRIMARY KEY, title STRING)
CREATE DIRECTED EDGE follows (FROM Person, TO Person, since DATETIME, weight DOUBLE) WITH REVERSE_EDGE="followed_by"
CREATE UNDIRECTED EDGE works_at (FROM Person, TO Company, role STRING)
CREATE GRAPH social (*)`;

const stores = scratchStores('graph-store');
const newStore = () => stores.open(schema);

const social = (store: GraphStore) => store.graph('social', '/graph/social');
const upsert = (store: GraphStore, body: unknown, opts?: UpsertOptions) =>
  writeUpsert(store, planUpsert(store, social(store), body), opts);
const person = (store: GraphStore) => store.catalog.vertexTypes.get('Person')!;
const attrsOf = (store: GraphStore, id: string) => JSON.parse(getVertex(store, person(store), id) ?? 'null');
const v = (attrs: Record<string, unknown> = {}) =>
  Object.fromEntries(Object.entries(attrs).map(([k, value]) => [k, { value }]));

function refusal(fn: () => unknown, code: string, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DataPlaneError, String(err));
    assert.equal(err.code, code);
    assert.match(err.message, message);
    return true;
  });
}

describe('GSQL schema changes', () => {
  let store: GraphStore;
  beforeEach(() => (store = newStore()));

  it('store types and graphs that survive reopening, the schema version moving with each change', () => {
    assert.deepEqual([...store.catalog.vertexTypes.keys()], ['Person', 'Company']);
    assert.equal(store.catalog.edgeTypes.get('follows')!.reverse, 'followed_by');
    assert.deepEqual(social(store).edgeTypes, ['follows', 'works_at']);
    assert.equal(store.catalog.version, 5);
    const file = store.db.name;
    store.close();
    const again = GraphStore.open(file);
    assert.equal(again.catalog.vertexTypes.get('Company')!.primaryKeyForm, true);
    assert.equal(again.catalog.version, 5);
    again.close();
  });

  it("refuse conflicts in the words pyTigerGraph's gsql() looks for, and stop at the first refusal", () => {
    const r = runGsql(
      store,
      'CREATE VERTEX Extra (PRIMARY_ID id STRING)\nCREATE VERTEX Person (PRIMARY_ID id STRING)\nLS',
    );
    assert.equal(r.ok, false);
    assert.match(r.output, /^Successfully created vertex types: \[Extra\]\./);
    assert.match(
      r.output,
      /The name Person is already used by a vertex type\.\nFailed to create vertex types: \[Person\]\./,
    );
    assert.match(r.output, /__GSQL__RETURN__CODE__,212$/);
    assert.doesNotMatch(r.output, /Global vertices/, 'LS after the refusal did not run');
    assert.ok(store.catalog.vertexTypes.has('Extra'), 'the statement before the refusal stays applied');

    const cases: [string, RegExp][] = [
      [
        'CREATE DIRECTED EDGE e (FROM Nobody, TO Person)',
        /vertex type Nobody does not exist\.\nFailed to create edge types: \[e\]/,
      ],
      [
        'CREATE UNDIRECTED EDGE e (FROM Person, TO Person) WITH REVERSE_EDGE="r"',
        /undirected edge type e cannot have a REVERSE_EDGE/,
      ],
      ['CREATE GRAPH g2 (works_at)', /needs the vertex type Person in the graph\.\nThe graph g2 could not be created!/],
      ['DROP VERTEX Company', /used by the edge type works_at/],
      ['DROP EDGE follows', /used by the graph social; drop the graph first/],
      ['DROP EDGE followed_by', /reverse edge of follows/],
      ['USE GRAPH nowhere', /The graph nowhere does not exist\./],
      ['CREATE VERTEX T (PRIMARY_ID id DOUBLE)', /a primary id must be one of STRING, INT, UINT/],
      ['CREATE VERTEX T (PRIMARY_ID id STRING, n INT DEFAULT "x")', /DEFAULT of n does not fit/],
      ['CREATE QUERY q() FOR GRAPH nowhere { PRINT 1; }', /The graph nowhere does not exist\./],
      ['CREATE VERTEX T (PRIMARY_ID id STRING, __proto__ INT)', /attribute name __proto__ is reserved/],
      ['CREATE VERTEX __T (PRIMARY_ID id STRING)', /name __T is reserved/],
    ];
    for (const [text, expected] of cases) {
      const result = runGsql(store, text);
      assert.equal(result.ok, false, text);
      assert.match(result.output, expected, text);
    }
    const syntax = runGsql(store, 'CREATE VERTEX (');
    assert.match(syntax.output, /^Syntax Error: Encountered "\(" at line 1, column 15\.\n__GSQL__RETURN__CODE__,211$/);
  });

  it('keep in memory the schema a reload reads, change after change', () => {
    const reloaded = () => {
      const again = GraphStore.open(store.db.name, { readOnly: true });
      try {
        return again.catalog;
      } finally {
        again.close();
      }
    };
    const steps = [
      'CREATE VERTEX Robot (PRIMARY_ID id UINT, model STRING DEFAULT "r2")',
      'CREATE DIRECTED EDGE builds (FROM Company, TO Robot | FROM Person, TO Robot) WITH REVERSE_EDGE="built_by"',
      'CREATE GRAPH factory (Company, Person, Robot, built_by)',
      'DROP GRAPH social',
      'DROP EDGE follows',
      'CREATE VERTEX Later (PRIMARY_ID id STRING)',
      'DROP GRAPH factory\nDROP EDGE builds\nDROP VERTEX Robot',
      'CREATE GRAPH again (*)',
      'DROP ALL',
      'CREATE VERTEX Fresh (PRIMARY_ID id STRING)',
    ];
    for (const step of steps) {
      const result = runGsql(store, step);
      assert.ok(result.ok, `${step}: ${result.output}`);
      assert.deepEqual(store.catalog, reloaded(), step);
    }
  });

  it('run a request of many schema statements in time linear in their number', () => {
    // n vertex types, n more used by edge types, one graph naming them all, then the first n dropped.
    const request = (n: number) => {
      const lines: string[] = [];
      const range = (name: string) => Array.from({ length: n }, (_, i) => `${name}${i}`);
      for (const v of [...range('V'), ...range('W')]) lines.push(`CREATE VERTEX ${v} (PRIMARY_ID id STRING)`);
      for (const [i, w] of range('W').entries()) lines.push(`CREATE UNDIRECTED EDGE E${i} (FROM ${w}, TO ${w})`);
      lines.push(`CREATE GRAPH many (${[...range('V'), ...range('W'), ...range('E')].join(', ')})`);
      lines.push('DROP GRAPH many', `DROP VERTEX ${range('V').join(', ')}`);
      return lines.join('\n');
    };
    const exponent = growthExponent((n) => {
      const fresh = stores.open();
      const result = runGsql(fresh, request(n));
      fresh.close();
      assert.ok(result.ok, result.output.slice(-300));
    }, 40);
    // Reloading the schema after each statement made it quadratic.
    assert.ok(exponent < LINEAR_EXPONENT, `cost grew as the number of statements to the power ${exponent.toFixed(2)}`);
  });

  it('stop printing at the output limit, the statements after not run', () => {
    const ls = runGsql(store, 'LS').output;
    const limit = Math.floor(ls.length * 1.5);
    const r = runGsql(store, 'LS\nLS\nCREATE VERTEX Late (PRIMARY_ID id STRING)', { outputLimit: limit });
    assert.equal(r.ok, false);
    assert.equal(
      r.output,
      `${ls}\nSemantic Check Fails: the answer is larger than the limit of ${limit} bytes: the statement at line 2 ` +
        'ran but what it printed is left out, and the statements after it were not run.\n__GSQL__RETURN__CODE__,212',
    );
    assert.equal(store.catalog.vertexTypes.has('Late'), false);
    assert.ok(runGsql(store, 'LS\nLS', { outputLimit: 2 * (ls.length + 1) }).ok, 'up to the limit is printed');
  });

  it('drop a graph, then its types and their data; DROP ALL empties the store', () => {
    upsert(store, { vertices: { Person: { ann: {} } } });
    const r = runGsql(store, 'DROP GRAPH social\nDROP EDGE follows, works_at\nDROP VERTEX Person');
    assert.ok(r.ok, r.output);
    assert.deepEqual(store.counts().vertex_count, 0);
    assert.ok(runGsql(store, 'DROP ALL').ok);
    assert.equal(store.catalog.vertexTypes.size, 0);
  });
});

describe('upserts', () => {
  let store: GraphStore;
  beforeEach(() => (store = newStore()));

  it('give new vertices defaults, keep attributes a later upsert does not name, and check every value', () => {
    const result = upsert(store, { vertices: { Person: { ann: v({ points: 3 }), bob: {} } } });
    assert.deepEqual(result, { accepted_vertices: 2, accepted_edges: 0 });
    assert.deepEqual(attrsOf(store, 'bob'), { age: 18, points: 0, joined: '1970-01-01 00:00:00', vip: false });
    upsert(store, { vertices: { Person: { ann: v({ age: 40, joined: '2024-05-06 07:08:09' }) } } });
    assert.deepEqual(attrsOf(store, 'ann'), { age: 40, points: 3, joined: '2024-05-06 07:08:09', vip: false });
  });

  it('refuse a whole request when one value, attribute or type is wrong', () => {
    const bad: [unknown, string, RegExp][] = [
      [
        { vertices: { Person: { ok: {}, bad: v({ age: '12' }) } } },
        'REST-30000',
        /'age' of vertex type 'Person'.*not an INT/,
      ],
      [{ vertices: { Person: { ok: {}, bad: v({ shoe: 1 }) } } }, 'REST-30000', /attribute 'shoe' does not exist/],
      [{ vertices: { Robot: { r2: {} } } }, 'REST-2004', /vertex type 'Robot'/],
      [{ vertices: { Person: { ok: { age: 3 } } } }, 'REST-30000', /must be an object \{"value"/],
      [{ edges: { Person: { ok: { likes: { Person: { x: {} } } } } } }, 'REST-2005', /edge type 'likes'/],
      [
        { edges: { Person: { ok: { follows: { Company: { 1: {} } } } } } },
        'REST-2005',
        /does not go from 'Person' to 'Company'/,
      ],
      [{ vertices: { Company: { 'x-1': {} } } }, 'REST-30000', /'x-1' is not a valid UINT vertex id/],
      [{ vertices: { Company: { 5: v({ id: 6 }) } } }, 'REST-30000', /primary key of vertex type 'Company'/],
      [
        { vertices: { Person: { ok: { age: { value: 1, op: 'times' } } } } },
        'REST-30000',
        /"times" .* is not an operation code/,
      ],
      [
        { vertices: { Person: { ok: { vip: { value: true, op: '+' } } } } },
        'REST-30000',
        /op '\+' does not apply to the BOOL/,
      ],
      [{ nodes: {} }, 'REST-30000', /unknown field 'nodes'/],
    ];
    for (const [body, code, message] of bad) refusal(() => upsert(store, body), code, message);
    assert.equal(store.counts().vertex_count, 0, 'nothing of a refused request is written');
  });

  it('combine with stored values under operation codes, refusing a result out of range', () => {
    upsert(store, { vertices: { Person: { ann: v({ points: 5, age: 30 }) } } });
    upsert(store, {
      vertices: {
        Person: {
          ann: { points: { value: 2, op: '+' }, age: { value: 20, op: 'max' }, vip: { value: true, op: '~' } },
        },
      },
    });
    assert.deepEqual(attrsOf(store, 'ann'), { age: 30, points: 7, joined: '1970-01-01 00:00:00', vip: false });
    refusal(
      () =>
        upsert(store, {
          vertices: { Person: { ann: { age: { value: -99, op: 'add' } }, cat: { points: { value: -1, op: 'add' } } } },
        }),
      'REST-30000',
      /not a UINT/,
    );
    assert.equal(attrsOf(store, 'ann').age, 30, 'the refused request changed nothing, not even its first vertex');
  });

  it('honour new_vertex_only and update_vertex_only', () => {
    upsert(store, { vertices: { Person: { ann: v({ age: 30 }) } } });
    const result = upsert(store, { vertices: { Person: { ann: v({ age: 99 }), bob: {} } } }, { newVertexOnly: true });
    assert.deepEqual(result, {
      accepted_vertices: 1,
      accepted_edges: 0,
      skipped_vertices: 1,
      vertices_already_exist: [{ v_type: 'Person', v_id: 'ann' }],
    });
    assert.equal(attrsOf(store, 'ann').age, 30);
    const updated = upsert(
      store,
      { vertices: { Person: { ann: v({ age: 31 }), cat: {} } } },
      { updateVertexOnly: true },
    );
    // TigerGraph 4.x names the vertices it skipped, as pyTigerGraph's upsertData(updateVertexOnly=True) expects.
    assert.deepEqual(updated, {
      accepted_vertices: 1,
      accepted_edges: 0,
      skipped_vertices: 1,
      vertices_not_exist: [{ v_type: 'Person', v_id: 'cat' }],
    });
    assert.equal(attrsOf(store, 'ann').age, 31);
    assert.equal(attrsOf(store, 'cat'), null);
  });

  it('create missing edge ends with defaults, or skip the edge under vertex_must_exist', () => {
    const made = upsert(store, { edges: { Person: { ann: { works_at: { Company: { 7: v({ role: 'cto' }) } } } } } });
    assert.deepEqual(made, { accepted_vertices: 0, accepted_edges: 1 });
    assert.deepEqual(JSON.parse(getVertex(store, store.catalog.vertexTypes.get('Company')!, '7')!), {
      id: 7,
      title: '',
    });
    const skipped = upsert(
      store,
      { vertices: { Person: { bob: {} } }, edges: { Person: { bob: { follows: { Person: { ann: {}, zed: {} } } } } } },
      { vertexMustExist: true },
    );
    assert.deepEqual(skipped, {
      accepted_vertices: 1,
      accepted_edges: 1,
      skipped_edges: 1,
      edge_vertices_not_exist: [{ v_type: 'Person', v_id: 'zed' }],
    });
  });

  it('write one row for an edge and its reverse, and one row for an undirected edge written either way', () => {
    upsert(store, { edges: { Person: { ann: { follows: { Person: { bob: v({ weight: 1 }) } } } } } });
    upsert(store, { edges: { Person: { bob: { followed_by: { Person: { ann: v({ weight: 2 }) } } } } } });
    upsert(store, { edges: { Person: { ann: { works_at: { Company: { 1: v({ role: 'a' }) } } } } } });
    upsert(store, { edges: { Company: { 1: { works_at: { Person: { ann: v({ role: 'b' }) } } } } } });
    assert.equal(store.counts().edge_count, 2);
    const [edge] = queryEdges(store, selection(store, 'ann', 'follows'), readEdgeQuery([], {}));
    assert.equal(edge!.out.attributes.weight, 2);
  });
});

function selection(store: GraphStore, id: string, edge?: string): EdgeSelection {
  const views = viewsFrom(store, social(store), person(store)).filter((view) => !edge || view.name === edge);
  return { source: { type: person(store), id }, views };
}

describe('reads and deletes', () => {
  let store: GraphStore;
  beforeEach(() => {
    store = newStore();
    const people = Object.fromEntries(
      Array.from({ length: 2500 }, (_, i) => [`p${String(i).padStart(4, '0')}`, v({ age: i % 100, vip: i % 2 === 0 })]),
    );
    upsert(store, { vertices: { Person: people } });
  });

  const list = (q: Record<string, string>) =>
    [...vertexBatches(store, person(store), readVertexQuery(person(store), q))].flat().map((t) => JSON.parse(t));

  it('list every vertex in id order across batches, and honour limit, filter, sort and select', () => {
    const all = list({});
    assert.equal(all.length, 2500);
    assert.equal(all[1234].v_id, 'p1234');
    assert.equal(list({ limit: '1500' }).at(-1).v_id, 'p1499');
    const old = list({ filter: 'age>=98,vip=true' });
    assert.equal(old.length, 25);
    assert.ok(old.every((p) => p.attributes.age === 98));
    const top = list({ sort: '-age', limit: '3', select: 'age' });
    assert.deepEqual(
      top.map((p) => [p.v_id, p.attributes]),
      [
        ['p0099', { age: 99 }],
        ['p0199', { age: 99 }],
        ['p0299', { age: 99 }],
      ],
    );
    assert.equal(
      countVertices(store, person(store), readVertexQuery(person(store), { filter: 'age<10' }).conditions),
      250,
    );
  });

  it('read edges from either end, the reverse and undirected ones from the same row; deletes cascade', () => {
    upsert(store, {
      edges: {
        Person: {
          p0001: { follows: { Person: { p0002: v({ weight: 0.5 }), p0001: {} } }, works_at: { Company: { 9: {} } } },
        },
      },
    });
    const names = (id: string, edge?: string) =>
      queryEdges(store, selection(store, id, edge), readEdgeQuery([], {}))
        .map((e) => `${e.out.e_type}:${e.out.to_id}`)
        .sort();
    assert.deepEqual(names('p0001'), ['followed_by:p0001', 'follows:p0001', 'follows:p0002', 'works_at:9']);
    assert.deepEqual(names('p0002'), ['followed_by:p0001']);
    const company = store.catalog.vertexTypes.get('Company')!;
    const views = viewsFrom(store, social(store), company);
    const fromCompany = queryEdges(store, { source: { type: company, id: '9' }, views }, readEdgeQuery(views, {}));
    assert.deepEqual(
      fromCompany.map((e) => [e.out.e_type, e.out.from_id, e.out.to_id, e.out.directed]),
      [['works_at', '9', 'p0001', false]],
    );

    const removed = deleteEdges(store, selection(store, 'p0002', 'followed_by'), readEdgeQuery([], {}));
    assert.deepEqual(removed, [{ e_type: 'followed_by', deleted_edges: 1 }]);
    assert.deepEqual(names('p0001', 'follows'), ['follows:p0001'], 'deleting the reverse deleted the forward edge');

    assert.equal(deleteVertex(store, person(store), 'p0001'), 1);
    assert.equal(store.counts().edge_count, 0, 'the edges of a deleted vertex are gone');
  });
});

describe('a read-only store', () => {
  it('serves reads and refuses every write, schema changes included', () => {
    const rw = newStore();
    upsert(rw, { vertices: { Person: { ann: {} } } });
    const file = rw.db.name;
    rw.close();
    const ro = GraphStore.open(file, { readOnly: true });
    assert.equal(JSON.parse(getVertex(ro, person(ro), 'ann')!).age, 18);
    refusal(() => upsert(ro, { vertices: { Person: { bob: {} } } }), 'READ-ONLY', /read-only/);
    const ddl = runGsql(ro, 'CREATE VERTEX X (PRIMARY_ID id STRING)');
    assert.equal(ddl.ok, false);
    assert.match(ddl.output, /read-only/);
    ro.close();
  });
});
