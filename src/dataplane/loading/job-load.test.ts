import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../../test/helpers/scratch-stores.js';
import type { EdgeRow } from '../edge-ops.js';
import type { GraphStore } from '../graph-store.js';
import { planUpsert } from '../upsert-plan.js';
import { writeUpsert } from '../upsert-write.js';
import { filePlan, checkJob } from './job-compile.js';
import { loadFile } from './job-load.js';
import { findJob } from './job-store.js';
import { runGsql } from '../gsql-runner.js';

const schema = `
CREATE VERTEX Person (PRIMARY_ID name STRING, age INT DEFAULT 18, city STRING) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE follows (FROM Person, TO Person, since INT, weight DOUBLE DEFAULT 1.5)
CREATE UNDIRECTED EDGE knows (FROM Person, TO Person, since INT)
CREATE GRAPH social (*)
CREATE LOADING JOB people FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES ($0, $1, $2);
}
CREATE LOADING JOB links FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO EDGE follows VALUES ($0, $1, $2, $3);
}
CREATE LOADING JOB links_since FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO EDGE follows VALUES ($0, $1, $2, _);
}
CREATE LOADING JOB mixed FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO EDGE follows VALUES ($0, $1, $3, _), TO VERTEX Person VALUES ($1, $2, _),
    TO EDGE knows VALUES ($1, $0, $3);
}`;

const stores = scratchStores('job-load');
const newStore = () => stores.open(schema);

const load = (store: GraphStore, job: string, chunks: Iterable<string>) => {
  const def = findJob(store, job)!;
  return loadFile(store, checkJob(store, def), filePlan(def, 'f')!, chunks);
};

const vertices = (store: GraphStore) =>
  store.db
    .prepare('SELECT type_id, id, attrs FROM vertices ORDER BY type_id, id')
    .all()
    .map((r) => {
      const row = r as { id: string; attrs: string };
      return [row.id, JSON.parse(row.attrs)];
    });
const edges = (store: GraphStore) =>
  store.db
    .prepare('SELECT type_id, from_id, to_id, attrs FROM edges ORDER BY type_id, from_id, to_id')
    .all()
    .map((r) => {
      const row = r as { type_id: number; from_id: string; to_id: string; attrs: string };
      return [store.catalog.edgeTypesById.get(row.type_id)!.name, row.from_id, row.to_id, JSON.parse(row.attrs)];
    });
const settings = (store: GraphStore) => ({
  cache: store.db.pragma('cache_size', { simple: true }),
  temp: store.db.pragma('temp_store', { simple: true }),
});
const indexes = (store: GraphStore) =>
  store.db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'edges' ORDER BY name`)
    .pluck()
    .all();

describe('loading job writes', () => {
  it('folds lines naming the same edge into one, later values over earlier ones, counting every line', () => {
    const store = newStore();
    const stats = load(store, 'links', ['a,b,1,2.5\nb,a,7,0\na,b,2,3.5\n']);
    assert.equal(stats.validLine, 3);
    assert.deepEqual(stats.edge, [
      { typeName: 'follows', validObject: 3, noIdFound: 0, invalidAttribute: 0, invalidPrimaryId: 0 },
    ]);
    assert.deepEqual(edges(store), [
      ['follows', 'a', 'b', { since: 2, weight: 3.5 }],
      ['follows', 'b', 'a', { since: 7, weight: 0 }],
    ]);
    // Ends are made once each, with default attributes.
    assert.deepEqual(vertices(store), [
      ['a', { name: 'a', age: 18, city: '' }],
      ['b', { name: 'b', age: 18, city: '' }],
    ]);
  });

  it('updates an existing edge, leaving an attribute given as _ as it was, also within one request', () => {
    const store = newStore();
    load(store, 'links', ['a,b,1,2.5\n']);
    load(store, 'links_since', ['a,b,5\nc,d,6\nc,d,8\n']);
    assert.deepEqual(edges(store), [
      ['follows', 'a', 'b', { since: 5, weight: 2.5 }],
      ['follows', 'c', 'd', { since: 8, weight: 1.5 }],
    ]);
    // A line giving every value replaces them all on the edge that exists.
    load(store, 'links', ['c,d,9,0.25\n']);
    assert.deepEqual(edges(store)[1], ['follows', 'c', 'd', { since: 9, weight: 0.25 }]);
  });

  it('patches the existing edges among new ones written together, and makes the new ones as given', () => {
    const store = newStore();
    // Every 50th of 600 edges exists already, with other values; 600 rows span three statements.
    const line = (i: number, since: number) => `s${String(i).padStart(3, '0')},t${i % 7},${since},0.5`;
    load(store, 'links', [Array.from({ length: 12 }, (_, k) => line(k * 50, -1)).join('\n')]);
    const stats = load(store, 'links', [Array.from({ length: 600 }, (_, i) => line(i, i)).join('\n')]);
    assert.equal(stats.edge[0]!.validObject, 600);
    const rows = edges(store);
    assert.equal(rows.length, 600);
    rows.forEach(([, from, to, attrs], i) => {
      assert.deepEqual([from, to, attrs], [`s${String(i).padStart(3, '0')}`, `t${i % 7}`, { since: i, weight: 0.5 }]);
    });
  });

  it('makes objects only of the lines whose WHERE condition holds, and counts the lines it held back', () => {
    const store = stores.open(`${schema}
CREATE LOADING JOB filtered FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES ($0, $1, $2) WHERE $1 IS NUMERIC AND to_int($1) BETWEEN 18 AND 65 AND NOT $2 IS EMPTY,
    TO EDGE follows VALUES ($0, $3, _, _) WHERE $3 IN ("b", "c") OR token_len($3) > 3 AND to_int($1) / 2 != 0;
}`);
    const stats = load(store, 'filtered', ['a,30,Paris,b\nb,x,Rome,zzzz\nc,70,Oslo,d\nd,40,,c\ne,1,Rome,ffff\n']);
    // Each line but the first leaves out an object. b: the age is not a number, and its edge
    // fails both ways (to_int of "x" fails); c: too old, and d is not an edge target; d: no city;
    // e: too young, and 1 / 2 is 0 in whole numbers.
    assert.deepEqual([stats.validLine, stats.failedConditionLine], [5, 4]);
    assert.deepEqual([stats.vertex[0]!.validObject, stats.edge[0]!.validObject], [1, 2]);
    assert.deepEqual(
      edges(store).map(([, from, to]) => `${from}>${to}`),
      ['a>b', 'd>c'],
    );
    assert.deepEqual(
      vertices(store).find(([id]) => id === 'a'),
      ['a', { name: 'a', age: 30, city: 'Paris' }],
    );
  });

  it('compares a token with the tokens of the same line in an IN list', () => {
    const store = stores.open(`${schema}
CREATE LOADING JOB same FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO EDGE follows VALUES ($0, $1, _, _) WHERE $1 IN ($2, "z");
}`);
    const stats = load(store, 'same', ['a,b,b\na,c,x\na,z,q\n']);
    assert.equal(stats.failedConditionLine, 1);
    assert.deepEqual(
      edges(store).map(([, from, to]) => `${from}>${to}`),
      ['a>b', 'a>z'],
    );
  });

  it('makes a condition false where a conversion fails, however deep it sits, NOT and OR included', () => {
    const store = stores.open(`${schema}
CREATE LOADING JOB negated FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO EDGE follows VALUES ($0, $1, _, _) WHERE NOT (to_int($2) > 3 OR $1 == "z");
}`);
    const stats = load(store, 'negated', ['a,b,1\na,c,x\na,z,1\na,d,9\n']);
    // Only a>b holds: a>c cannot convert "x", a>z is excluded by name, a>d by number.
    assert.equal(stats.failedConditionLine, 3);
    assert.deepEqual(
      edges(store).map(([, from, to]) => `${from}>${to}`),
      ['a>b'],
    );
  });

  it('runs the string token functions on each line', () => {
    const store = stores.open(`${schema}
CREATE LOADING JOB shaped FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES (gsql_substring($0, 1, 3), gsql_length($0),
    gsql_concat(gsql_ltrim($1), "|", gsql_rtrim($1), "|", gsql_reverse($2), "|", gsql_replace($2, "l", "L", 2),
      "|", gsql_find($2, "lo"), "|", gsql_find($2, "zz"), "|", gsql_substring($2, 3))),
    TO VERTEX Person VALUES ("uuid", _, gsql_uuid_v4());
}`);
    load(store, 'shaped', ['Taylor,  x  ,hello world\n']);
    const [shaped, uuid] = vertices(store);
    assert.deepEqual(shaped, ['ayl', { name: 'ayl', age: 6, city: 'x  |  x|dlrow olleh|heLLo world|3|-1|lo world' }]);
    assert.match(uuid![1].city, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('runs the date token functions on each line, leaving what is no timestamp for the attribute to refuse', () => {
    const store = stores.open(`${schema}
CREATE LOADING JOB dated FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES ($0, gsql_ts_to_epoch_seconds($1),
    gsql_concat(gsql_year($1), "-", gsql_month($1), "-", gsql_day($1), "|", gsql_year_epoch($2), "-",
      gsql_month_epoch($2), "-", gsql_day_epoch($2), "|", gsql_split_by_space($3))),
    TO VERTEX Person VALUES (gsql_concat($0, "-now"), gsql_current_time_epoch(0), _);
}`);
    const before = Math.floor(Date.now() / 1000);
    const stats = load(store, 'dated', [
      'a,2011-02-03 01:02:03,0,x y\n',
      'b,2011/2/3 1:02:03,951782400,z\n',
      'c,2011-02-03T01:02:03.123z,-86400,\n',
      // Not a date (February 30th), not a timestamp, an epoch past any date: the INT is refused.
      'd,2011-02-30 01:02:03,1,x\ne,yesterday,1,x\n',
      'f,2011-02-03 01:02:03,9999999999999999,x\n',
    ]);
    assert.deepEqual(stats.vertex[0]!.invalidAttribute, 2);
    const rows = Object.fromEntries(vertices(store));
    assert.deepEqual(rows.a, { name: 'a', age: 1296694923, city: '2011-2-3|1970-1-1|x\x1ey' });
    assert.deepEqual(rows.b, { ...rows.a, name: 'b', city: '2011-2-3|2000-2-29|z' });
    assert.deepEqual(rows.c, { ...rows.a, name: 'c', city: '2011-2-3|1969-12-31|' });
    assert.deepEqual(rows.f, {
      ...rows.a,
      name: 'f',
      city: '2011-2-3|9999999999999999-9999999999999999-9999999999999999|x',
    });
    assert.equal(rows.d, undefined);
    assert.ok(rows['a-now'].age >= before && rows['a-now'].age <= Math.floor(Date.now() / 1000) + 1);
  });

  it('reads a JSON file line by line by key, nested keys and numbers as written included', () => {
    const store = stores.open(`${schema}
CREATE LOADING JOB from_json FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES ($"name", $"age", $"home":"city") WHERE to_int($"age") >= 21,
    TO EDGE follows VALUES ($"name", $"best", $"since", $"w") USING JSON_FILE="true";
}`);
    const edge = '"best":"ann","since":1,"w":0';
    const lines = [
      '{"name":"ann","age":30,"home":{"city":"Paris"},"best":"bob","since":2020,"w":1.50}',
      `{"name":"bob","age":"41","home":{"city":12345678901234567890},"best":"ann","since":2021,"w":2}`,
      `{"name":"cy","age":19,"home":{"city":"Oslo"},${edge}}`,
      'not json',
      '[1]',
      `{"name":"dee","age":25,${edge}}`,
      `{"name":"eve","age":null,"home":{"city":"x"},${edge}}`,
      `{"name":"fay","age":22,"home":{"city":{"a":[1,2.0]}},${edge}}`,
      '',
      `{"name":"gus","age":23,"home":"flat",${edge}}`,
    ];
    // Split mid-line, as a request's chunks may be.
    const text = `${lines.join('\r\n')}\n`;
    const stats = load(store, 'from_json', [text.slice(0, 50), text.slice(50)]);
    assert.deepEqual(
      [stats.validLine, stats.rejectLine, stats.invalidJson, stats.notEnoughToken, stats.failedConditionLine],
      [4, 5, 2, 3, 1],
    );
    const people = new Map(vertices(store) as [string, Record<string, unknown>][]);
    assert.deepEqual(people.get('ann'), { name: 'ann', age: 30, city: 'Paris' });
    // An id-sized number keeps every digit; an object is its JSON text.
    assert.deepEqual(people.get('bob'), { name: 'bob', age: 41, city: '12345678901234567890' });
    assert.deepEqual(people.get('fay'), { name: 'fay', age: 22, city: '{"a":[1,2.0]}' });
    assert.equal(people.get('cy')!.age, 18, 'cy is too young for the vertex clause: only its edge made it');
    assert.deepEqual(
      edges(store).map(([, from, to, attrs]) => [`${from}>${to}`, attrs]),
      [
        ['ann>bob', { since: 2020, weight: 1.5 }],
        ['bob>ann', { since: 2021, weight: 2 }],
        ['cy>ann', { since: 1, weight: 0 }],
        ['fay>ann', { since: 1, weight: 0 }],
      ],
    );
  });

  it('refuses a load whose gsql_replace would outgrow a line, writing nothing', () => {
    const store = stores.open(`${schema}
CREATE LOADING JOB grow FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES ($0, _, gsql_replace($1, "a", "${'b'.repeat(10_000)}"));
}`);
    assert.throws(
      () => load(store, 'grow', [`small,aa\nbig,${'a'.repeat(1_000)}\n`]),
      /gsql_replace made a value longer than 8388608 characters/,
    );
    assert.deepEqual(vertices(store), []);
  });

  it('gives a vertex its line values whether its vertex line comes before or after an edge to it', () => {
    const store = newStore();
    load(store, 'people', ['zoe,40,Oslo\n']);
    // Line 1 makes y as an edge end; line 2 gives it values; line 3 gives x values, then x is an end.
    const stats = load(store, 'mixed', ['zoe,y,,1\nzoe,y,33,2\nx,zoe,21,3\nx,y,,4\n']);
    assert.deepEqual(stats.vertex, [
      { typeName: 'Person', validObject: 2, noIdFound: 0, invalidAttribute: 2, invalidPrimaryId: 0 },
    ]);
    assert.deepEqual(vertices(store), [
      ['x', { name: 'x', age: 18, city: '' }],
      ['y', { name: 'y', age: 33, city: '' }],
      // The vertex line for zoe leaves the city it has.
      ['zoe', { name: 'zoe', age: 21, city: 'Oslo' }],
    ]);
    // An undirected edge written both ways is one row, in a fixed order of its ends.
    assert.deepEqual(
      edges(store).filter((e) => e[0] === 'knows'),
      [
        ['knows', 'x', 'y', { since: 4 }],
        ['knows', 'x', 'zoe', { since: 3 }],
        ['knows', 'y', 'zoe', { since: 2 }],
      ],
    );
  });

  it('makes edge ends with their default attributes, whatever their kind of primary id', () => {
    const store = stores.open(`CREATE VERTEX Item (PRIMARY_ID code INT, label STRING DEFAULT "none")
  WITH primary_id_as_attribute="true"
CREATE VERTEX Tag (PRIMARY_ID name STRING, uses INT)
CREATE VERTEX Place (country STRING, city STRING, pop INT DEFAULT 7, PRIMARY KEY (country, city))
CREATE DIRECTED EDGE tagged (FROM Item, TO Tag)
CREATE DIRECTED EDGE made_in (FROM Item, TO Place)
CREATE GRAPH shop (*)
CREATE LOADING JOB links FOR GRAPH shop {
  DEFINE FILENAME f;
  LOAD f TO EDGE tagged VALUES ($0, $1), TO EDGE made_in VALUES ($0, $2) USING SEPARATOR="|";
}`);
    const def = findJob(store, 'links')!;
    loadFile(store, checkJob(store, def), filePlan(def, 'f')!, ['7|red|Peru,Lima\n12|blue|Chile,Arica\n']);
    const rows = store.db.prepare('SELECT id, attrs FROM vertices ORDER BY type_id, id').all() as {
      id: string;
      attrs: string;
    }[];
    assert.deepEqual(
      rows.map((r) => [r.id, JSON.parse(r.attrs)]),
      [
        ['12', { code: 12, label: 'none' }],
        ['7', { code: 7, label: 'none' }],
        ['blue', { uses: 0 }],
        ['red', { uses: 0 }],
        ['Chile,Arica', { country: 'Chile', city: 'Arica', pop: 7 }],
        ['Peru,Lima', { country: 'Peru', city: 'Lima', pop: 7 }],
      ],
    );
  });

  it('leaves the same rows as writing each line through the REST++ upsert path', () => {
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(`p${(i * 7) % 101},p${(i * 13) % 89},${i % 5 ? '' : i},${i}`);
    const bulk = newStore();
    load(bulk, 'people', ['p1,5,Rome\np7,6,Nice\n']);
    load(bulk, 'mixed', [lines.slice(0, 1700).join('\n') + '\n', lines.slice(1700).join('\n')]);

    const oneByOne = newStore();
    const graph = oneByOne.graph('social', '/graph/social');
    const upsert = (body: unknown) => writeUpsert(oneByOne, planUpsert(oneByOne, graph, body));
    upsert({ vertices: { Person: { p1: { age: { value: 5 }, city: { value: 'Rome' } } } } });
    upsert({ vertices: { Person: { p7: { age: { value: 6 }, city: { value: 'Nice' } } } } });
    for (const line of lines) {
      const [a, b, age, since] = line.split(',') as [string, string, string, string];
      const edge = (from: string, name: string, to: string) => ({
        [from]: { [name]: { Person: { [to]: { since: { value: Number(since) } } } } },
      });
      upsert({ edges: { Person: edge(a, 'follows', b) } });
      if (age !== '') upsert({ vertices: { Person: { [b]: { age: { value: Number(age) } } } } });
      upsert({ edges: { Person: edge(b, 'knows', a) } });
    }
    assert.deepEqual(vertices(bulk), vertices(oneByOne));
    assert.deepEqual(edges(bulk), edges(oneByOne));
    assert.deepEqual(indexes(bulk), indexes(oneByOne));
  });

  it('writes nothing when the file fails at a later line, and keeps every edge index', () => {
    const store = newStore();
    const settingsBefore = settings(store);
    load(store, 'links', ['a,b,1,2\n']);
    assert.deepEqual(settings(store), settingsBefore);
    const writes = store.writes;
    function* failing() {
      yield 'c,d,1,2\ne,f,3,4\n';
      throw new Error('the file could not be read further');
    }
    assert.throws(() => load(store, 'links', failing()), /could not be read further/);
    assert.deepEqual(edges(store), [['follows', 'a', 'b', { since: 1, weight: 2 }]]);
    assert.deepEqual(
      vertices(store).map((v) => v[0]),
      ['a', 'b'],
    );
    assert.deepEqual(indexes(store), ['edges_by_source', 'edges_by_target', 'edges_by_type']);
    // What the load set on the connection for its time is set back, failed or not.
    assert.deepEqual(settings(store), settingsBefore);
    // A view of the data built before the attempt is stale.
    assert.ok(store.writes > writes);
  });

  it('rejects a line longer than a record may be and loads the lines around it', () => {
    const store = newStore();
    const long = Array<string>(9).fill('x'.repeat(1 << 20));
    const stats = load(store, 'links', ['a,b,1,2\n', ...long, '\nc,d,3,4\n']);
    assert.equal(stats.validLine, 2);
    assert.equal(stats.rejectLine, 1);
    assert.equal(stats.oversizeToken, 1);
    assert.deepEqual(
      edges(store).map((e) => e.slice(1, 3)),
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    );
  });

  it('counts every line when many requests of edges land among the same vertices', () => {
    const store = newStore();
    const body = (from: number) =>
      Array.from({ length: 2000 }, (_, i) => `v${(from + i) % 300},v${(from * 3 + i * 7) % 300},${i},0`).join('\n');
    let valid = 0;
    for (let r = 0; r < 4; r++) valid += load(store, 'links', [body(r * 2000)]).edge[0]!.validObject;
    assert.equal(valid, 8000);
    const distinct = new Set<string>();
    for (let r = 0; r < 4; r++)
      for (const line of body(r * 2000).split('\n')) distinct.add(line.split(',').slice(0, 2).join(','));
    assert.equal(store.counts().edge_count, distinct.size);
    assert.equal(store.counts().vertex_count, 300);
    assert.deepEqual(indexes(store), ['edges_by_source', 'edges_by_target', 'edges_by_type']);
  });
});

describe('loading jobs into edge types of several FROM/TO pairs', () => {
  const schema = `
CREATE VERTEX Person (PRIMARY_ID id STRING)
CREATE VERTEX Company (PRIMARY_ID id INT)
CREATE VERTEX Robot (PRIMARY_ID id STRING)
CREATE DIRECTED EDGE Visit (FROM Person, TO Person | FROM Person, TO Company, year INT)
CREATE UNDIRECTED EDGE Tie (FROM Person, TO Company | FROM Company, TO Person)
CREATE UNDIRECTED EDGE Purchase (FROM *, TO *)
CREATE GRAPH g (Person, Company, Visit, Tie, Purchase)`;

  it('reads each end type from the line or the job, counting a type the edge does not take', () => {
    const store = stores.open(`${schema}
CREATE LOADING JOB visits FOR GRAPH g {
  DEFINE FILENAME f;
  LOAD f TO EDGE Visit VALUES ($0, $2 $1, $3), TO EDGE Purchase VALUES ($0 Person, $2 "Company") WHERE $1 == "Company";
}`);
    const stats = load(store, 'visits', [
      'Sam,Person,Joe,2012\nSam,Company,4057,2017\nPat,Robot,x,1\nPat,Company,n,1\n',
    ]);
    assert.deepEqual(stats.edge, [
      { typeName: 'Visit', validObject: 2, noIdFound: 0, invalidAttribute: 1, invalidPrimaryId: 1 },
      { typeName: 'Purchase', validObject: 1, noIdFound: 0, invalidAttribute: 0, invalidPrimaryId: 1 },
    ]);
    const named = (id: number) => store.catalog.vertexTypesById.get(id)!.name;
    const rows = store.db
      .prepare('SELECT type_id, from_type, from_id, to_type, to_id, attrs FROM edges ORDER BY rowid')
      .all();
    assert.deepEqual(
      rows.map((r) => {
        const e = r as EdgeRow;
        return [
          store.catalog.edgeTypesById.get(e.type_id)!.name,
          named(e.from_type),
          e.from_id,
          named(e.to_type),
          e.to_id,
        ];
      }),
      [
        ['Visit', 'Person', 'Sam', 'Person', 'Joe'],
        ['Visit', 'Person', 'Sam', 'Company', '4057'],
        // An undirected edge is stored with its ends in a fixed order (Person before Company).
        ['Purchase', 'Person', 'Sam', 'Company', '4057'],
      ],
    );
  });

  it('refuses, when the job is created, an end whose type is not written or that the edge does not take', () => {
    const store = stores.open(schema);
    for (const [values, message] of [
      [
        'Visit VALUES ($0, $1, $2)',
        /The edge type Visit has several TO vertex types: write the target's type after its id/,
      ],
      ['Visit VALUES ($0 Company, $1 Person, $2)', /The edge type Visit has no FROM vertex type Company in graph g/],
      ['Visit VALUES ($0 Robot, $1 Person, $2)', /has no FROM vertex type Robot in graph g/],
      ['Tie VALUES ($0 Person, $1 Person)', /The edge type Tie does not go from Person to Person/],
      ['Purchase VALUES ($0, $1 Person)', /The edge type Purchase has several FROM vertex types/],
    ] as const) {
      const result = runGsql(
        store,
        `CREATE LOADING JOB j FOR GRAPH g {\n  DEFINE FILENAME f;\n  LOAD f TO EDGE ${values};\n}`,
      );
      assert.equal(result.ok, false, values);
      assert.match(result.output, message, values);
    }
  });
});

describe('DELETE statements of loading jobs', () => {
  const jobs = `
CREATE LOADING JOB forget FOR GRAPH social {
  DEFINE FILENAME f;
  DELETE VERTEX Person (PRIMARY_ID $0) FROM f WHERE $1 == "x";
}
CREATE LOADING JOB unfollow FOR GRAPH social {
  DEFINE FILENAME f;
  DELETE EDGE follows (FROM $0, TO $1) FROM f;
}
CREATE LOADING JOB unknow FOR GRAPH social {
  DEFINE FILENAME f;
  DELETE EDGE knows (FROM $0) FROM f;
}
CREATE LOADING JOB isolate FOR GRAPH social {
  DEFINE FILENAME f;
  DELETE EDGE * (FROM $0 Person) FROM f;
}
CREATE LOADING JOB replace FOR GRAPH social {
  DEFINE FILENAME f;
  DELETE EDGE follows (FROM $0) FROM f;
  LOAD f TO EDGE follows VALUES ($0, $1, $2, _);
}`;
  /** a→b, a→c, b→a, c→d follow; a–b, a–c, b–d know. */
  const seeded = () => {
    const store = stores.open(schema + jobs);
    load(store, 'links', ['a,b,1,1\na,c,2,1\nb,a,3,1\nc,d,4,1\n']);
    const plan = planUpsert(store, store.catalog.graphs.get('social')!, {
      edges: { Person: { a: { knows: { Person: { b: {}, c: {} } } }, d: { knows: { Person: { b: {} } } } } },
    });
    writeUpsert(store, plan);
    return store;
  };
  const links = (store: GraphStore) => edges(store).map(([type, from, to]) => `${type}:${from}-${to}`);
  const stat = (typeName: string, validObject: number, noIdFound = 0) => ({
    typeName,
    validObject,
    noIdFound,
    invalidAttribute: 0,
    invalidPrimaryId: 0,
  });

  it('deletes the vertices lines name, with their edges, counting names that are missing or fail the WHERE', () => {
    const store = seeded();
    const stats = load(store, 'forget', ['c,x\nzz,x\nb,y\n,x\n']);
    assert.deepEqual(stats.deleteVertex, [stat('Person', 2, 1)]);
    assert.deepEqual([stats.validLine, stats.failedConditionLine, stats.vertex, stats.edge], [4, 1, [], []]);
    assert.deepEqual(
      vertices(store).map(([id]) => id),
      ['a', 'b', 'd'],
    );
    assert.deepEqual(links(store), ['follows:a-b', 'follows:b-a', 'knows:a-b', 'knows:b-d']);
  });

  it("deletes one edge, a type's edges from a vertex (either end of an undirected one), or all that leave it", () => {
    let store = seeded();
    assert.deepEqual(load(store, 'unfollow', ['b,a\nc,a\n']).deleteEdge, [stat('follows', 2)]);
    assert.deepEqual(links(store), [
      'follows:a-b',
      'follows:a-c',
      'follows:c-d',
      'knows:a-b',
      'knows:a-c',
      'knows:b-d',
    ]);
    // b is the second end of the stored a–b, the first of b–d.
    load(store, 'unknow', ['b\n']);
    assert.deepEqual(links(store), ['follows:a-b', 'follows:a-c', 'follows:c-d', 'knows:a-c']);

    store = seeded();
    assert.deepEqual(load(store, 'isolate', ['a\n']).deleteEdge, [stat('*', 1)]);
    // The edge into a (b→a) does not leave it and stays; the vertices stay.
    assert.deepEqual(links(store), ['follows:b-a', 'follows:c-d', 'knows:b-d']);
    assert.equal(vertices(store).length, 4);
  });

  it("writes a line's deletes before its loads, and earlier lines' loads before them", () => {
    const store = seeded();
    const stats = load(store, 'replace', ['a,d,9\na,b,8\n']);
    assert.deepEqual([stats.deleteEdge, stats.edge], [[stat('follows', 2)], [stat('follows', 2)]]);
    // The second line deleted the edges from a, the first line's a→d among them, then loaded a→b.
    assert.deepEqual(
      edges(store).filter(([type]) => type === 'follows'),
      [
        ['follows', 'a', 'b', { since: 8, weight: 1.5 }],
        ['follows', 'b', 'a', { since: 3, weight: 1 }],
        ['follows', 'c', 'd', { since: 4, weight: 1 }],
      ],
    );
  });

  it('refuses, when the job is created, a DELETE of a type the graph does not have', () => {
    const store = stores.open(schema);
    for (const [statement, message] of [
      ['DELETE VERTEX Ghost (PRIMARY_ID $0) FROM f', /The vertex type Ghost is not in graph social \(at line 3/],
      ['DELETE EDGE ghost (FROM $0) FROM f', /The edge type ghost is not in graph social/],
      ['DELETE EDGE * (FROM $0 Ghost) FROM f', /The vertex type Ghost is not in graph social/],
      ['DELETE VERTEX Person (PRIMARY_ID $"id") FROM f', /A column named by \$"name" needs USING HEADER="true"/],
    ] as const) {
      const result = runGsql(
        store,
        `CREATE LOADING JOB j FOR GRAPH social {\n  DEFINE FILENAME f;\n  ${statement};\n}`,
      );
      assert.equal(result.ok, false, statement);
      assert.match(result.output, message, statement);
    }
    assert.equal(findJob(store, 'j'), undefined);
  });
});

describe('loading jobs into LIST, SET, MAP and tuple attributes, and by REDUCE', () => {
  const shop = `
TYPEDEF TUPLE <code INT, label STRING(5)> Tag
CREATE VERTEX Item (PRIMARY_ID id STRING, nums LIST<INT>, names SET<STRING>, scores MAP<STRING, DOUBLE>, tag Tag,
  tags LIST<Tag>, byYear MAP<INT, Tag>, title STRING)
CREATE DIRECTED EDGE rel (FROM Item, TO Item, notes LIST<STRING>, weight INT)
CREATE GRAPH shop (*)
CREATE LOADING JOB rows FOR GRAPH shop {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Item VALUES ($0, $1, $2, ($3 -> $4), _, _, _, _);
}
CREATE LOADING JOB built FOR GRAPH shop {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Item VALUES ($0, SPLIT($1, "#"), SET($2, $3), SPLIT($4, ":", ";"), Tag($5, $6), LIST(Tag($7, "x")),
    MAP(($8 -> Tag($9, "y"))), $10);
}
CREATE LOADING JOB links FOR GRAPH shop {
  DEFINE FILENAME f;
  LOAD f TO EDGE rel VALUES ($0, $1, SPLIT($2, "#"), $3);
}`;
  const item = (store: GraphStore, id: string) => vertices(store).find(([v]) => v === id)?.[1];

  it('adds a line value to what the attribute holds, across lines and runs (cumulative loading)', () => {
    const store = stores.open(shop);
    const stats = load(store, 'rows', [
      '1,10,a,x,1.5\n3,30,b,y,2\n1,20,a,z,3\n3,30,b,y,4\n',
      '1,20,c,x,9\n2,ten,a,x,1\n',
    ]);
    assert.deepEqual(stats.vertex, [
      { typeName: 'Item', validObject: 5, noIdFound: 0, invalidAttribute: 1, invalidPrimaryId: 0 },
    ]);
    // A LIST keeps every element in line order, a SET each once, a MAP the later value of a key.
    assert.deepEqual(item(store, '1'), {
      nums: [10, 20, 20],
      names: ['a', 'c'],
      scores: { x: 9, z: 3 },
      tag: { code: 0, label: '' },
      tags: [],
      byYear: {},
      title: '',
    });
    assert.deepEqual(item(store, '3'), { ...item(store, '1'), nums: [30, 30], names: ['b'], scores: { y: 4 } });
    // An element that does not fit leaves the whole object out.
    assert.equal(item(store, '2'), undefined);

    // A second run adds to the stored values.
    load(store, 'rows', ['1,5,d,w,0\n1,5,a,x,7\n']);
    assert.deepEqual(item(store, '1'), {
      ...item(store, '3'),
      nums: [10, 20, 20, 5, 5],
      names: ['a', 'c', 'd'],
      scores: { x: 7, z: 3, w: 0 },
    });
  });

  it('splits tokens into elements or pairs, builds LIST, SET, MAP and tuples, and checks them as upserts are', () => {
    const store = stores.open(shop);
    const stats = load(store, 'built', [
      '1,4#5#6,p,q,k1:1.5;k2:2,7,abc,8,2020,9,t\n',
      '1,4,q,,k1:3,1,b,2,2021,3,u\n',
      '2,,p,p,,1,b,2,2021,3,v\n',
      // A label longer than STRING(5), a pair without its separator, an element that is not an INT.
      '5,1,p,q,k:1,7,toolong,8,2020,9,t\n6,1,p,q,k1,7,a,8,2020,9,t\n7,1#x,p,q,k:1,7,a,8,2020,9,t\n',
    ]);
    assert.deepEqual(stats.vertex, [
      { typeName: 'Item', validObject: 3, noIdFound: 0, invalidAttribute: 3, invalidPrimaryId: 0 },
    ]);
    assert.deepEqual(item(store, '1'), {
      nums: [4, 5, 6, 4],
      names: ['p', 'q', ''],
      scores: { k1: 3, k2: 2 },
      // A tuple is put in place, not added to.
      tag: { code: 1, label: 'b' },
      tags: [
        { code: 8, label: 'x' },
        { code: 2, label: 'x' },
      ],
      byYear: { '2020': { code: 9, label: 'y' }, '2021': { code: 3, label: 'y' } },
      title: 'u',
    });
    // An empty token splits into nothing; a SET keeps one of two equal elements.
    assert.deepEqual(item(store, '2'), {
      nums: [],
      names: ['p'],
      scores: {},
      tag: { code: 1, label: 'b' },
      tags: [{ code: 2, label: 'x' }],
      byYear: { '2021': { code: 3, label: 'y' } },
      title: 'v',
    });
    for (const id of ['5', '6', '7']) assert.equal(item(store, id), undefined, id);
  });

  it("adds to an edge's LIST the same way, whether the edge is new, named again, or stored", () => {
    const store = stores.open(shop);
    load(store, 'links', ['a,b,n1,1\na,b,n2#n3,2\nb,a,n4,3\n']);
    assert.deepEqual(edges(store), [
      ['rel', 'a', 'b', { notes: ['n1', 'n2', 'n3'], weight: 2 }],
      ['rel', 'b', 'a', { notes: ['n4'], weight: 3 }],
    ]);
    load(store, 'links', ['a,b,n1,5\n']);
    assert.deepEqual(edges(store)[0], ['rel', 'a', 'b', { notes: ['n1', 'n2', 'n3', 'n1'], weight: 5 }]);
  });

  it('combines each line with what the attribute holds by REDUCE, a new object starting from its first line', () => {
    const store = stores.open(`
CREATE VERTEX Stat (PRIMARY_ID id STRING, hi INT, lo DOUBLE, total INT, text STRING, flag BOOL, bits UINT,
  last LIST<INT>, first STRING, counts MAP<STRING, INT>, words MAP<STRING, STRING>)
CREATE GRAPH stats (*)
CREATE LOADING JOB reduce FOR GRAPH stats {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Stat VALUES ($0, REDUCE(max($1)), REDUCE(min($2)), REDUCE(add($1)), REDUCE(add($3)),
    REDUCE(or($4)), REDUCE(and($5)), REDUCE(overwrite($1)), REDUCE(ignore_if_exists($3)),
    REDUCE(add(($3 -> $1))), REDUCE(add(($3 -> $3))));
}`);
    load(store, 'reduce', ['a,5,2.5,x,false,14\na,-3,7,y,true,10\n', 'a,9,-1,x,false,11\n']);
    assert.deepEqual(item(store, 'a'), {
      hi: 9,
      lo: -1,
      total: 11,
      text: 'xyx',
      flag: true,
      bits: 10,
      last: [9],
      first: 'x',
      counts: { x: 14, y: -3 },
      words: { x: 'xx', y: 'y' },
    });
    // A second run combines with the stored row; a new vertex takes its first line's values
    // (min and and are not taken with the defaults 0).
    load(store, 'reduce', ['a,20,-5,z,false,1\nb,1,1,q,false,3\n']);
    assert.deepEqual(item(store, 'a'), {
      hi: 20,
      lo: -5,
      total: 31,
      text: 'xyxz',
      flag: true,
      bits: 0,
      last: [20],
      first: 'x',
      counts: { x: 14, y: -3, z: 20 },
      words: { x: 'xx', y: 'y', z: 'z' },
    });
    assert.deepEqual(item(store, 'b'), {
      hi: 1,
      lo: 1,
      total: 1,
      text: 'q',
      flag: false,
      bits: 3,
      last: [1],
      first: 'q',
      counts: { q: 1 },
      words: { q: 'q' },
    });
  });

  it('refuses, when the job is created, a value its attribute does not take, naming the attribute and its type', () => {
    const store = stores.open(shop);
    const job = (values: string) =>
      `CREATE LOADING JOB j FOR GRAPH shop {\n  DEFINE FILENAME f;\n  LOAD f TO VERTEX Item VALUES (${values});\n}`;
    const cases: [string, RegExp][] = [
      [
        '$0, _, _, _, _, _, _, SPLIT($1, "|")',
        /attribute title \(STRING\) is loaded from a token, a literal or a token/,
      ],
      ['$0, _, _, $1, _, _, _, _', /attribute scores \(MAP<STRING, DOUBLE>\) is loaded from \(key -> value\)/],
      ['$0, _, _, _, Tag($1), _, _, _', /attribute tag \(Tag\) is loaded from Tag\(…\) with its 2 fields/],
      ['$0, _, _, _, Other($1, $2), _, _, _', /attribute tag \(Tag\) is loaded from Tag\(…\)/],
      ['$0, _, LIST($1), _, _, _, _, _', /attribute names \(SET<STRING>\) is loaded from a token, SPLIT/],
      ['$0, _, _, _, _, $1, _, _', /attribute tags \(LIST<Tag>\) is loaded from Tag\(…\) or LIST\(Tag\(…\), …\)/],
      ['$0, _, _, SPLIT($1, ":", ";", ","), _, _, _, _', /SPLIT takes a value and one or two separators/],
      ['$0, _, _, _, _, _, ($1 -> $2), _', /attribute byYear \(MAP<INT, Tag>\) is loaded from \(key -> Tag\(…\)\)/],
      ['SPLIT($0, "|"), _, _, _, _, _, _, _', /An id of vertex Item is loaded from a token/],
      ['$0, _, _, _, _, _, _, REDUCE(max($1))', /The reducer max does not apply to attribute title \(STRING\)/],
      ['$0, _, _, _, REDUCE(add(Tag($1, $2))), _, _, _', /The reducer add does not apply to attribute tag \(Tag\)/],
      [
        '$0, _, _, REDUCE(overwrite(($1 -> $2))), _, _, _, _',
        /The reducer overwrite does not apply to attribute scores/,
      ],
      [
        '$0, _, _, REDUCE(add($1)), _, _, _, _',
        /attribute scores \(MAP<STRING, DOUBLE>\) reduces one \(key -> value\) a line/,
      ],
      ['$0, REDUCE(add(Tag($1, $2))), _, _, _, _, _, _', /attribute nums \(LIST<INT>\) reduces one element a line/],
      ['$0, REDUCE(add(SPLIT($1, "|"))), _, _, _, _, _, _', /add reduces a token, a \(key -> value\) pair or a tuple/],
      ['$0, REDUCE(sum($1)), _, _, _, _, _, _', /REDUCE takes one of the reducer functions max, min, add/],
      ['REDUCE(max($0)), _, _, _, _, _, _, _', /An id of vertex Item is loaded from a token/],
    ];
    for (const [values, message] of cases) {
      const result = runGsql(store, job(values));
      assert.equal(result.ok, false, values);
      assert.match(result.output, message, values);
    }
    assert.equal(findJob(store, 'j'), undefined);
  });
});
