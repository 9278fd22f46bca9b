import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import { gsqlSyntaxError as syntaxError } from '../../test/helpers/gsql-parse.js';
import type { DataPlaneError } from './errors.js';
import { GraphStore } from './graph-store.js';
import { parseGsql } from './gsql-parser.js';
import { runGsql } from './gsql-runner.js';
import { vertexTypeJson } from './schema-json.js';
import { planUpsert } from './upsert-plan.js';
import { writeUpsert } from './upsert-write.js';
import { getVertex } from './vertex-ops.js';

const stores = scratchStores('schema-change');

function newStore(): { store: GraphStore; file: string } {
  const file = stores.file();
  return { store: GraphStore.open(file), file };
}

const setup = `CREATE GRAPH g()
TYPEDEF TUPLE <f1 INT, f2 STRING(4), f3 DATETIME> pair
CREATE SCHEMA_CHANGE JOB j {
  ADD VERTEX Item (PRIMARY_ID id STRING, bin FIXED_BINARY(4), t pair, nums LIST<INT>, tags SET<STRING>,
    m MAP<INT, pair>);
  ADD VERTEX Part (a INT, b STRING, c DATETIME, PRIMARY KEY (a, b, c));
  ADD DIRECTED EDGE any_to_any (FROM *, TO *);
  ADD UNDIRECTED EDGE link (FROM Item, TO Item | FROM Item, TO Part, w INT);
}
RUN SCHEMA_CHANGE JOB j`;

function ready(): { store: GraphStore; file: string } {
  const s = newStore();
  const r = runGsql(s.store, setup);
  assert.ok(r.ok, r.output);
  return s;
}

describe('parsing types, tuples and jobs', () => {
  it('reads collection, tuple and sized types', () => {
    const [st] = parseGsql('CREATE VERTEX V (PRIMARY_ID id INT, a LIST<t>, b MAP<STRING, DOUBLE>, c FIXED_BINARY(8))');
    assert.equal(st!.kind, 'createVertex');
    if (st?.kind !== 'createVertex') return;
    assert.deepEqual(st.decl.attributes, [
      { name: 'a', type: 'LIST', valueType: 't' },
      { name: 'b', type: 'MAP', keyType: 'STRING', valueType: 'DOUBLE' },
      { name: 'c', type: 'FIXED_BINARY', size: 8 },
    ]);
  });

  it('reads a job with every kind of step and keeps its text', () => {
    const text = `CREATE GLOBAL SCHEMA_CHANGE JOB k {
  ADD VERTEX A (PRIMARY_ID id INT); DROP EDGE e1, e2;
  ALTER VERTEX A ADD ATTRIBUTE (x INT DEFAULT 3); ALTER EDGE e DROP ATTRIBUTE (y, z);
}`;
    const [st] = parseGsql(text);
    assert.equal(st!.kind, 'createSchemaJob');
    if (st?.kind !== 'createSchemaJob') return;
    assert.equal(st.job.text, text);
    assert.deepEqual(
      st.job.actions.map((a) => a.kind),
      ['addVertex', 'dropEdge', 'alterAdd', 'alterDrop'],
    );
  });

  it('names the line and column of a bad step, a bad size and a bad UPSERT', () => {
    const step = syntaxError('CREATE SCHEMA_CHANGE JOB k {\n  RENAME VERTEX A;\n}');
    assert.deepEqual([step.line, step.column], [2, 3]);
    const size = syntaxError('TYPEDEF TUPLE <a STRING(x)> t');
    assert.deepEqual([size.line, size.column], [1, 25]);
    const upsert = syntaxError('UPSERT v VALUES 1');
    assert.deepEqual([upsert.line, upsert.column], [1, 17]);
  });
});

describe('tuples, collections and composite keys', () => {
  it('serve the schema JSON TigerGraph gives for them', () => {
    const { store } = ready();
    const item = vertexTypeJson(store.catalog.vertexTypes.get('Item')!) as {
      Attributes: { AttributeName: string; AttributeType: unknown }[];
      IsLocal: boolean;
    };
    assert.equal(item.IsLocal, true);
    assert.deepEqual(
      item.Attributes.map((a) => a.AttributeType),
      [
        { Name: 'FIXED_BINARY', FixedSize: 4 },
        { Name: 'UDT', TupleName: 'pair' },
        { Name: 'LIST', ValueTypeName: 'INT' },
        { Name: 'SET', ValueTypeName: 'STRING' },
        { Name: 'MAP', KeyTypeName: 'INT', ValueTypeName: 'UDT', ValueTypeTupleName: 'pair' },
      ],
    );
  });

  it('check upserted values and read them back', () => {
    const { store } = ready();
    const g = store.catalog.graphs.get('g')!;
    writeUpsert(
      store,
      planUpsert(store, g, {
        vertices: {
          Item: {
            i1: {
              t: { value: { f1: 1, f2: 'ab', f3: '2024-01-02' } },
              nums: { value: [3, 1, 3] },
              tags: { value: ['x', 'y', 'x'] },
              m: { value: { keylist: [7], valuelist: [{ f1: 2 }] } },
            },
          },
          Part: { '1,abc,2024-01-02 03:04:05': {} },
        },
      }),
    );
    const item = JSON.parse(getVertex(store, store.catalog.vertexTypes.get('Item')!, 'i1')!);
    assert.deepEqual(item.t, { f1: 1, f2: 'ab', f3: '2024-01-02 00:00:00' });
    assert.deepEqual(item.nums, [3, 1, 3]);
    assert.deepEqual(item.tags, ['x', 'y']);
    assert.deepEqual(item.m, { 7: { f1: 2, f2: '', f3: '1970-01-01 00:00:00' } });
    assert.equal(item.bin, '');
    const part = JSON.parse(getVertex(store, store.catalog.vertexTypes.get('Part')!, '1,abc,2024-01-02 03:04:05')!);
    assert.deepEqual(part, { a: 1, b: 'abc', c: '2024-01-02 03:04:05' });

    // An add op appends to a LIST and adds what a SET lacks.
    writeUpsert(
      store,
      planUpsert(store, g, {
        vertices: { Item: { i1: { nums: { value: [9], op: '+' }, tags: { value: ['y', 'z'], op: 'add' } } } },
      }),
    );
    const again = JSON.parse(getVertex(store, store.catalog.vertexTypes.get('Item')!, 'i1')!);
    assert.deepEqual(
      [again.nums, again.tags],
      [
        [3, 1, 3, 9],
        ['x', 'y', 'z'],
      ],
    );
  });

  it('refuse a bad value, a bad composite id or a bad edge pair, writing nothing', () => {
    const { store } = ready();
    const g = store.catalog.graphs.get('g')!;
    const refused = (body: unknown, pattern: RegExp, code = 'REST-30000') =>
      assert.throws(
        () => writeUpsert(store, planUpsert(store, g, body)),
        (err: DataPlaneError) => err.code === code && err.status === 400 && pattern.test(err.message),
      );
    refused({ vertices: { Item: { i1: { t: { value: { f1: 1, nope: 2 } } } } } }, /pair has no field nope/);
    refused({ vertices: { Item: { i1: { t: { value: { f2: 'abcde' } } } } } }, /at most 4 characters/);
    refused({ vertices: { Item: { i1: { nums: { value: [1, 'x'] } } } } }, /element 1/);
    refused({ vertices: { Item: { i1: { bin: { value: 'abcde' } } } } }, /at most 4 bytes/);
    refused({ vertices: { Part: { 'x,abc,2024-01-02': {} } } }, /key a/);
    refused({ vertices: { Part: { '1,abc': {} } } }, /3 key values joined by commas/);
    refused(
      { edges: { Part: { '1,a,2024-01-01': { link: { Part: { '2,b,2024-01-01': {} } } } } } },
      /does not go from 'Part' to 'Part'/,
      'REST-2005',
    );
    assert.equal(store.db.prepare('SELECT count(*) FROM vertices').pluck().get(), 0);
  });

  it('let FROM *, TO * join any two vertex types', () => {
    const { store } = ready();
    const r = runGsql(store, 'USE GRAPH g\nUPSERT Item -(any_to_any)-> Part VALUES ("i", "1,b,2024-01-01")');
    assert.ok(r.ok, r.output);
    assert.equal(store.db.prepare('SELECT count(*) FROM edges').pluck().get(), 1);
  });
});

describe('schema change jobs', () => {
  it('survive a restart and run ALTER ADD/DROP ATTRIBUTE over stored rows', () => {
    const { store, file } = ready();
    const r = runGsql(
      store,
      `USE GRAPH g
UPSERT Item VALUES ("i1")
CREATE SCHEMA_CHANGE JOB alter1 { ALTER VERTEX Item ADD ATTRIBUTE (score INT DEFAULT 5, m2 MAP<STRING, INT>); }
CREATE SCHEMA_CHANGE JOB alter2 { ALTER VERTEX Item DROP ATTRIBUTE (bin, nums); }`,
    );
    assert.ok(r.ok, r.output);
    store.close();
    const again = GraphStore.open(file);
    assert.deepEqual([...again.catalog.jobs.keys()], ['j', 'alter1', 'alter2']);
    const run = runGsql(again, 'USE GRAPH g\nRUN SCHEMA_CHANGE JOB alter1\nRUN SCHEMA_CHANGE JOB alter2');
    assert.match(run.output, /Local schema change succeeded\./);
    const item = JSON.parse(getVertex(again, again.catalog.vertexTypes.get('Item')!, 'i1')!);
    assert.equal(item.score, 5);
    assert.deepEqual(item.m2, {});
    assert.ok(!('bin' in item) && !('nums' in item));
    assert.match(runGsql(again, 'USE GRAPH g\nSHOW JOB alter1').output, /ALTER VERTEX Item ADD ATTRIBUTE/);
    assert.match(runGsql(again, 'DROP JOB alter1, alter2').output, /Successfully dropped jobs: \[alter1, alter2\]/);
    assert.equal(again.catalog.jobs.size, 1);
    again.close();
  });

  it('refuse a job with an unknown type, changing nothing, and roll back a run that fails midway', () => {
    const { store } = ready();
    const before = JSON.stringify([...store.catalog.vertexTypes.keys()]);
    const version = store.catalog.version;
    const bad = runGsql(
      store,
      'USE GRAPH g\nCREATE SCHEMA_CHANGE JOB b { ADD VERTEX N (PRIMARY_ID id INT, x nosuch); }',
    );
    assert.equal(bad.ok, false);
    assert.match(bad.output, /The attribute type nosuch of x is not supported/);
    assert.ok(!store.catalog.jobs.has('b'));
    // Valid when made; its second step fails once `Q` exists when it runs.
    const made = runGsql(
      store,
      'USE GRAPH g\nCREATE SCHEMA_CHANGE JOB b2 {\n' +
        '  ADD VERTEX N (PRIMARY_ID id INT); ADD VERTEX Q (PRIMARY_ID id INT);\n}',
    );
    assert.ok(made.ok, made.output);
    assert.ok(runGsql(store, 'CREATE VERTEX Q (PRIMARY_ID id INT)').ok);
    const run = runGsql(store, 'USE GRAPH g\nRUN SCHEMA_CHANGE JOB b2');
    assert.equal(run.ok, false);
    assert.match(run.output, /The name Q is already used/);
    assert.ok(!store.catalog.vertexTypes.has('N'), 'the first step is undone');
    assert.equal(JSON.stringify([...store.catalog.vertexTypes.keys()].filter((n) => n !== 'Q')), before);
    assert.ok(store.catalog.version > version);
    const dup = runGsql(store, 'TYPEDEF TUPLE <a INT> pair');
    assert.match(dup.output, /The name pair is already used by a tuple/);
  });

  it('DROP GRAPH … CASCADE drops the local types, tuples and jobs, so the setup runs again', () => {
    const { store } = ready();
    const r = runGsql(store, `DROP GRAPH g CASCADE\n${setup}`);
    assert.ok(r.ok, r.output);
    assert.deepEqual([...store.catalog.tuples.keys()], ['pair']);
  });
});
