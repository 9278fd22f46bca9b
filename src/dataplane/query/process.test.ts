import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dataPlaneCall } from '../../../test/helpers/data-plane.js';
import { startDataPlane, type DataPlaneProcess } from '../launcher.js';

/** Queries through a real data-plane process, over HTTP, as pyTigerGraph calls them. */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-query-process-'));
const storeFile = path.join(dir, 'graph.db');
const secret = randomBytes(24).toString('base64url');
let dp: DataPlaneProcess;

const call = dataPlaneCall(() => dp.url, secret);

const gsql = (text: string) => call('POST', '/gsql/v1/statements', text);

const setup = `CREATE VERTEX Person (PRIMARY_ID name STRING, age INT) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE knows (FROM Person, TO Person)
CREATE GRAPH social (*)
USE GRAPH social
CREATE QUERY friends_of(VERTEX<Person> p, SET<STRING> skip, INT min_age = 0) FOR GRAPH social {
  SumAccum<INT> @@total;
  start = {p};
  result = SELECT t FROM start:s -(knows:e)-> Person:t
           WHERE t.age >= min_age AND t.name NOT IN skip
           ACCUM @@total += 1
           ORDER BY t.name;
  PRINT result[result.age];
  PRINT @@total AS total;
}
CREATE QUERY spin() FOR GRAPH social {
  INT n = 0;
  WHILE TRUE DO n = n + 1; END;
  PRINT n;
}
CREATE QUERY escape(STRING where) FOR GRAPH social {
  FILE f (where);
  f.println("x");
}
CREATE QUERY set_age(VERTEX<Person> p, INT age) FOR GRAPH social {
  start = {p};
  start = SELECT s FROM start:s POST-ACCUM s.age = age;
  PRINT start;
}
CREATE QUERY flag(BOOL b) FOR GRAPH social {
  PRINT b;
}
INSTALL QUERY ALL`;

describe('queries through the data-plane process', () => {
  before(async () => {
    dp = await startDataPlane({ storeFile, secret });
    const r = await gsql(setup);
    assert.match(r.text, /Successfully created queries: \[friends_of\]\./);
    assert.match(r.text, /Query installation finished\./);
    const people = { alice: 30, bob: 20, carol: 40, dave: 50 };
    const up = await call(
      'POST',
      '/restpp/graph/social',
      JSON.stringify({
        vertices: {
          Person: Object.fromEntries(Object.entries(people).map(([k, age]) => [k, { age: { value: age } }])),
        },
        edges: { Person: { alice: { knows: { Person: { bob: {}, carol: {}, dave: {} } } } } },
      }),
    );
    assert.equal(up.status, 200, up.text);
  });
  after(async () => {
    await dp.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs an installed query with parameters in the URL, repeated keys for a set', async () => {
    const r = await call('GET', '/restpp/query/social/friends_of?p=alice&skip=dave&min_age=25');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.version, { edition: 'enterprise', api: 'v2', schema: r.json.version.schema });
    assert.equal(r.json.error, false);
    assert.deepEqual(r.json.results, [
      { result: [{ v_id: 'carol', v_type: 'Person', attributes: { 'result.age': 40 } }] },
      { total: 1 },
    ]);
    // The 3.x layout (no /restpp prefix) answers the same.
    const root = await call('GET', '/query/social/friends_of?p=alice&skip=dave&skip=carol');
    assert.deepEqual(root.json.results[1], { total: 1 });
  });

  it('runs an installed query with a JSON body, vertices as {"id": …}', async () => {
    const r = await call('POST', '/restpp/query/social/friends_of', JSON.stringify({ p: { id: 'alice' }, skip: [] }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.results[1].total, 3);
  });

  it('refuses in a JSON body a plain id or another type for a VERTEX<T> parameter, as REST++ does', async () => {
    const plain = await call('POST', '/restpp/query/social/friends_of', JSON.stringify({ p: 'alice' }));
    assert.equal(plain.status, 400);
    assert.equal(plain.json.error, true);
    assert.equal(plain.json.code, 'REST-30000');
    assert.match(plain.json.message, /'id' is not found in the VERTEX parameter 'p'/);
    const other = await call(
      'POST',
      '/restpp/query/social/friends_of',
      JSON.stringify({ p: { id: 'alice', type: 'Robot' } }),
    );
    assert.equal(other.status, 400);
    assert.equal(other.json.code, 'REST-30000');
    assert.match(other.json.message, /vertex type 'Robot' of the parameter 'p'/);
    const url = await call('GET', '/restpp/query/social/friends_of?p=alice&p.type=Robot');
    assert.equal(url.status, 200, 'the query string stays lenient: the type is the parameter own');
  });

  it('reads a BOOL parameter in the URL in any case, and refuses another word', async () => {
    for (const [text, value] of [
      ['True', true],
      ['FALSE', false],
      ['1', true],
    ] as const) {
      const r = await call('GET', `/restpp/query/social/flag?b=${text}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json.results, [{ b: value }]);
    }
    const bad = await call('GET', '/restpp/query/social/flag?b=yes');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'REST-30001');
    assert.match(bad.json.message, /parameter 'b'.*'yes' is not true or false/);
  });

  it('lists what each PRINT prints in the query signature, and shows an installed query under its mark', async () => {
    const sig = await call('POST', '/gsql/v1/queries/signature?graph=social&queryName=friends_of');
    assert.equal(sig.status, 200, sig.text);
    assert.equal(sig.json.output.length, 2);
    assert.deepEqual(sig.json.output[1], { total: 'int' });
    const flag = await call('POST', '/gsql/v1/queries/signature?graph=social&queryName=flag');
    assert.deepEqual(flag.json.output, [{ b: 'bool' }]);
    const none = await call('POST', '/gsql/v1/queries/signature?graph=social&queryName=nope');
    assert.equal(none.status, 400);
    assert.equal(none.json.error, true);
    assert.equal(none.json.code, 'REST-30001');
    const shown = await gsql('USE GRAPH social SHOW QUERY flag');
    assert.deepEqual(shown.text.split('\n').slice(0, 3), [
      "Using graph 'social'",
      '# installed v2',
      'CREATE QUERY flag(BOOL b) FOR GRAPH social {',
    ]);
  });

  it('checks a query text without keeping it: syntax and semantic errors with their place', async () => {
    const check = (code: unknown, graph = 'social') =>
      call('POST', `/gsql/v1/internal/check/query?graph=${graph}`, JSON.stringify({ code }));
    const ok = await check('CREATE QUERY fine() { PRINT "hello"; }');
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.json, { error: false, message: '', errors: [], warnings: [] });
    const syntax = await check('INVALID GSQL SYNTAX');
    assert.equal(syntax.status, 200);
    assert.equal(syntax.json.errors.length, 1);
    assert.equal(syntax.json.errors[0].line, 1);
    const semantic = await check('CREATE QUERY wrong() {\n  PRINT nobody;\n}');
    assert.match(semantic.json.errors[0].message, /^Semantic Check Fails: /);
    assert.equal(semantic.json.errors[0].line, 2);
    const listed = await call('GET', '/gsql/v1/queries?graph=social');
    assert.ok(!listed.json.results.includes('fine'), 'a checked query is not kept');
    const noCode = await check(42);
    assert.equal(noCode.status, 400);
    assert.equal(noCode.json.code, 'REST-30000');
    const noGraph = await check('CREATE QUERY fine() { PRINT 1; }', 'nope');
    assert.equal(noGraph.status, 404);
    assert.equal(noGraph.json.code, 'REST-1004');
  });

  it('runs a query detached with GSQL-ASYNC, its status and result kept under a request id', async () => {
    const async = { 'GSQL-ASYNC': 'true' };
    const started = await call('GET', '/restpp/query/social/friends_of?p=alice', undefined, { headers: async });
    assert.equal(started.status, 200, started.text);
    const id = started.json.request_id;
    assert.equal(typeof id, 'string');
    const status = await call('GET', `/restpp/query_status?graph_name=social&requestid=${id}`);
    assert.equal(status.status, 200, status.text);
    assert.equal(status.json.results[0].requestid, id);
    assert.equal(status.json.results[0].status, 'success');
    const result = await call('GET', `/restpp/query_result?graph_name=social&requestid=${id}`);
    assert.deepEqual(result.json.results[1], { total: 3 });
    const failed = await call('GET', '/restpp/query/social/friends_of?p=nobody', undefined, { headers: async });
    const failedId = failed.json.request_id;
    const all = await call('GET', '/restpp/query_status?graph_name=social&requestid=all');
    const seen = all.json.results.find((r: { requestid: string }) => r.requestid === failedId);
    assert.equal(seen.status, 'aborted');
    const failedResult = await call('GET', `/restpp/query_result?requestid=${failedId}`);
    assert.equal(failedResult.status, 400);
    assert.equal(failedResult.json.code, 'REST-30001');
    assert.match(failedResult.json.message, /Person 'nobody' does not exist/);
    const unknown = await call('GET', '/restpp/query_result?requestid=1.RESTPP_1_1.0.N');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.code, 'REST-30001');
  });

  it('keeps query and parameter descriptions, drops them on request and with the query', async () => {
    const path = '/gsql/v1/description?graph=social';
    const put = await call(
      'PUT',
      path,
      JSON.stringify({
        queries: [
          {
            queryName: 'friends_of',
            description: 'who p knows',
            parameters: [
              { paramName: 'min_age', description: 'youngest' },
              { paramName: 'p', description: 'the person' },
            ],
          },
        ],
      }),
    );
    assert.equal(put.status, 200, put.text);
    const got = await call('GET', `${path}&query=friends_of`);
    assert.deepEqual(got.json.results.queries, [
      {
        queryName: 'friends_of',
        description: 'who p knows',
        parameters: [
          { paramName: 'p', description: 'the person' },
          { paramName: 'min_age', description: 'youngest' },
        ],
      },
    ]);
    const drop = await call(
      'DELETE',
      path,
      JSON.stringify({ queries: ['friends_of'], queryParameters: ['friends_of.*'] }),
    );
    assert.equal(drop.status, 200, drop.text);
    const after = await call('GET', `${path}&query=friends_of`);
    assert.deepEqual(after.json.results.queries, [{ queryName: 'friends_of', parameters: [] }]);
    const badParam = await call(
      'PUT',
      path,
      JSON.stringify({ queries: [{ queryName: 'flag', parameters: [{ paramName: 'nope', description: 'x' }] }] }),
    );
    assert.equal(badParam.status, 400);
    assert.equal(badParam.json.code, 'REST-30001');
    const unknown = await call('GET', `${path}&query=ghost`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.code, 'REST-30001');
    await call('PUT', path, JSON.stringify({ queries: [{ queryName: 'flag', description: 'a flag' }] }));
    await gsql(
      'USE GRAPH social\nDROP QUERY flag\nCREATE QUERY flag(BOOL b) FOR GRAPH social { PRINT b; }\nINSTALL QUERY flag',
    );
    const fresh = await call('GET', `${path}&query=flag`);
    assert.deepEqual(fresh.json.results.queries, [{ queryName: 'flag', parameters: [] }], 'dropped with the query');
  });

  it('percent-decodes the strings of a JSON body, as REST++ does, and refuses a malformed escape', async () => {
    const body = { p: { id: 'al%69ce' }, skip: ['dav%65', '%25'] };
    const r = await call('POST', '/restpp/query/social/friends_of', JSON.stringify(body));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.results[1].total, 2);
    const bad = await call(
      'POST',
      '/restpp/query/social/friends_of',
      JSON.stringify({ p: { id: 'alice' }, skip: ['100%'] }),
    );
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error, true);
    assert.equal(bad.json.code, 'REST-30000');
    assert.match(bad.json.message, /parameter 'skip'/);
  });

  it("refuses a bad parameter, an unknown query and an unknown vertex in TigerGraph's shape", async () => {
    const bad = await call('GET', '/restpp/query/social/friends_of?p=alice&min_age=old');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'REST-30001');
    assert.match(bad.json.message, /parameter 'min_age'/);
    const ghost = await call('GET', '/restpp/query/social/friends_of?p=nobody');
    assert.equal(ghost.status, 400);
    assert.match(ghost.json.message, /parameter 'p'.*Person 'nobody' does not exist/);
    const unknown = await call('GET', '/restpp/query/social/nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'REST-1000');
  });

  it('stops a runaway WHILE at GSQL-TIMEOUT, serving other requests meanwhile', async () => {
    const started = performance.now();
    const [spin, ping] = await Promise.all([
      call('GET', '/restpp/query/social/spin', undefined, { headers: { 'GSQL-TIMEOUT': '300' } }),
      call('GET', '/api/ping'),
    ]);
    assert.equal(spin.status, 408, spin.text);
    assert.equal(spin.json.error, true);
    assert.equal(spin.json.code, 'REST-3003');
    assert.match(spin.json.message, /timeout of 300 ms/);
    assert.equal(ping.json.message, 'pong');
    assert.ok(performance.now() - started < 10_000);
    assert.equal((await call('GET', '/api/ping')).json.message, 'pong');
  });

  /** Looks at the process list until `url` is listed there `count` times (each look is answered while queries run). */
  const listedUntil = async (url: string, count = 1) => {
    for (let look = 0; look < 1000; look++) {
      const list = await call('GET', '/restpp/showprocesslist/social');
      assert.equal(list.status, 200, list.text);
      const found = list.json.results.filter((r: { url: string }) => r.url === url);
      if (found.length >= count) return found as { requestid: string; startTime: string; expirationTime: string }[];
    }
    return assert.fail(`${url} was never listed ${count} times`);
  };
  const aborted = (reply: { status: number; json: { error: boolean; code: string; message: string } }) => {
    assert.equal(reply.status, 409, JSON.stringify(reply.json));
    assert.deepEqual([reply.json.error, reply.json.code], [true, 'REST-3005']);
    assert.match(reply.json.message, /aborted \(abortquery\)/);
  };
  const longRun = { headers: { 'GSQL-TIMEOUT': '120000' } };

  it('lists a running query, serves reads while it runs, holds GSQL back, and stops it on abortquery', async () => {
    const spinning = call('GET', '/restpp/query/social/spin', undefined, longRun);
    const [listed] = await listedUntil('/query/social/spin');
    assert.match(listed!.requestid, /^\d+\.RESTPP_1_1\.\d+\.N$/);
    assert.match(listed!.startTime, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    assert.ok(listed!.expirationTime > listed!.startTime);
    const alice = await call('GET', '/restpp/graph/social/vertices/Person/alice');
    assert.equal(alice.status, 200, alice.text);
    // A GSQL request waits for the query's turn: a schema change never happens under it.
    let answered = false;
    const ddl = gsql('USE GRAPH social\nCREATE QUERY later() FOR GRAPH social { PRINT 1; }').then((r) => {
      answered = true;
      return r;
    });
    assert.equal((await call('GET', '/restpp/showprocesslist/social')).json.results.length, 1);
    assert.equal(answered, false);
    const stop = await call('GET', `/restpp/abortquery/social?requestid=${listed!.requestid}`);
    assert.equal(stop.status, 200, stop.text);
    assert.deepEqual(stop.json.results, [
      { aborted_queries: [{ requestid: listed!.requestid, url: '/query/social/spin' }] },
    ]);
    aborted(await spinning);
    assert.match((await ddl).text, /Successfully created queries: \[later\]/);
    assert.deepEqual((await call('GET', '/restpp/showprocesslist/social')).json.results, []);
  });

  it('stops a request waiting for its turn at once, and a detached run by its endpoint', async () => {
    const first = await call('GET', '/restpp/query/social/spin', undefined, {
      headers: { ...longRun.headers, 'GSQL-ASYNC': 'true' },
    });
    const id = first.json.request_id;
    await listedUntil('/query/social/spin');
    const status = await call('GET', `/restpp/query_status?graph_name=social&requestid=${id}`);
    assert.equal(status.json.results[0].status, 'running');
    const early = await call('GET', `/restpp/query_result?requestid=${id}`);
    assert.deepEqual([early.status, early.json.code], [400, 'REST-30001']);
    assert.match(early.json.message, /still running/);
    // A second query waits behind the first; stopped, it is answered while the first still runs.
    const waiting = call('GET', '/restpp/query/social/friends_of?p=alice', undefined, longRun);
    const [queued] = await listedUntil('/query/social/friends_of');
    await call('GET', `/restpp/abortquery/social?requestid=${queued!.requestid}`);
    aborted(await waiting);
    assert.equal((await listedUntil('/query/social/spin')).length, 1);
    const stop = await call('GET', '/restpp/abortquery/social?url=/query/social/spin');
    assert.deepEqual(stop.json.results[0].aborted_queries, [{ requestid: id, url: '/query/social/spin' }]);
    for (let look = 0; look < 1000; look++) {
      const now = await call('GET', `/restpp/query_status?graph_name=social&requestid=${id}`);
      if (now.json.results[0].status !== 'running') break;
    }
    const result = await call('GET', `/restpp/query_result?requestid=${id}`);
    aborted(result);
    const unknownGraph = await call('GET', '/restpp/showprocesslist/nope');
    assert.deepEqual([unknownGraph.status, unknownGraph.json.code], [404, 'REST-1004']);
  });

  it('refuses a FILE outside the workspace folder', async () => {
    const r = await call('GET', `/restpp/query/social/escape?where=${encodeURIComponent('../../etc/x')}`);
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 'REST-3004');
    assert.match(r.json.message, /outside the workspace's file folder/);
    const inside = await call('GET', '/restpp/query/social/escape?where=out/list.csv');
    assert.equal(inside.status, 200, inside.text);
    assert.equal(fs.readFileSync(path.join(dir, 'files', 'out', 'list.csv'), 'utf8'), 'x\n');
  });

  it('writes attributes through the store, seen by the REST++ vertex endpoint', async () => {
    const r = await call('GET', '/restpp/query/social/set_age?p=bob&age=21');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.results[0].start[0].attributes.age, 21);
    const v = await call('GET', '/restpp/graph/social/vertices/Person/bob');
    assert.equal(v.json.results[0].attributes.age, 21);
  });

  it('sees what REST++ upserts wrote since the last run: attribute values, then a new edge and vertex', async () => {
    const friends = async () => {
      const r = await call('GET', '/restpp/query/social/friends_of?p=frank&min_age=25');
      assert.equal(r.status, 200, r.text);
      return (r.json.results[0].result as { v_id: string; attributes: { 'result.age': number } }[]).map(
        (v) => `${v.v_id} ${v.attributes['result.age']}`,
      );
    };
    const upsert = async (body: object) => {
      const r = await call('POST', '/restpp/graph/social', JSON.stringify(body));
      assert.equal(r.status, 200, r.text);
    };
    await upsert({ edges: { Person: { frank: { knows: { Person: { gina: {} } } } } } });
    await upsert({ vertices: { Person: { gina: { age: { value: 10 } } } } });
    assert.deepEqual(await friends(), []);
    await upsert({ vertices: { Person: { gina: { age: { value: 30 } } } } });
    assert.deepEqual(await friends(), ['gina 30']);
    await upsert({
      vertices: { Person: { hank: { age: { value: 35 } } } },
      edges: { Person: { frank: { knows: { Person: { hank: {} } } } } },
    });
    assert.deepEqual(await friends(), ['gina 30', 'hank 35']);
    await upsert({ vertices: { Person: { gina: { age: { value: 20 } } } } });
    assert.deepEqual(await friends(), ['hank 35']);
  });

  it('lists installed queries among the endpoints and keeps them across a restart', async () => {
    const eps = await call('GET', '/restpp/endpoints/social?dynamic=true');
    assert.deepEqual(eps.json['GET /query/social/friends_of'].parameters.min_age, { type: 'INT', default: '0' });
    await dp.stop();
    dp = await startDataPlane({ storeFile, secret });
    const r = await call('GET', '/restpp/query/social/friends_of?p=alice');
    assert.equal(r.json.results[1].total, 3);
    const shown = await gsql('USE GRAPH social\nSHOW QUERY spin');
    assert.match(shown.text, /CREATE QUERY spin\(\) FOR GRAPH social \{/);
  });

  it('runs an interpreted query with parameters in the URL', async () => {
    const r = await call(
      'POST',
      '/gsql/v1/queries/interpret?who=carol',
      'INTERPRET QUERY (VERTEX<Person> who) FOR GRAPH social { PRINT who, who.age AS age; }',
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.results, [{ who: 'carol', age: 40 }]);
    const unknown = await call(
      'POST',
      '/gsql/v1/queries/interpret',
      'INTERPRET QUERY () FOR GRAPH social {\n  PRINT nobody;\n}',
    );
    assert.equal(unknown.status, 400, unknown.text);
    assert.deepEqual([unknown.json.error, unknown.json.code], [true, 'GSQL-1001']);
    assert.match(unknown.json.message, /^Semantic Check Fails: .*nobody/);
  });
});

describe('a query that outgrows the heap of the data-plane process', () => {
  const heapDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-query-heap-'));
  let small: DataPlaneProcess;
  let exited = false;
  const callSmall = dataPlaneCall(() => small.url, secret);
  before(async () => {
    // The smallest heap the local driver gives a workspace's process (TG-00's 64 MiB bound).
    small = await startDataPlane({
      storeFile: path.join(heapDir, 'graph.db'),
      secret,
      maxHeapMb: 64,
      onExit: () => (exited = true),
    });
    const r = await callSmall(
      'POST',
      '/gsql/v1/statements',
      `CREATE VERTEX Item (PRIMARY_ID id STRING)
CREATE GRAPH shop (*)
USE GRAPH shop
CREATE QUERY grow() FOR GRAPH shop {
  ListAccum<STRING> @@names; INT n = 0;
  WHILE TRUE DO @@names += "name of an item, number " + to_string(n); n = n + 1; END;
}
CREATE QUERY doubling() FOR GRAPH shop {
  ListAccum<INT> @@list; @@list += 1;
  WHILE TRUE DO @@list += @@list; END;
}
CREATE QUERY map_doubling() FOR GRAPH shop {
  MapAccum<INT, SumAccum<INT>> @@a; MapAccum<INT, SumAccum<INT>> @@b; INT n = 0;
  @@a += (0 -> 1);
  WHILE TRUE DO FOREACH (k, v) IN @@a DO @@b += (k + n -> v); END; n = n + @@b.size(); @@a += @@b; END;
}
CREATE QUERY churn() FOR GRAPH shop {
  ListAccum<STRING> @@names; INT rounds = 0;
  WHILE rounds < 40 DO
    @@names.clear();
    FOREACH i IN RANGE[1, 100000] DO @@names += "name of an item, number " + to_string(i); END;
    rounds = rounds + 1;
  END;
  PRINT @@names.size() AS kept, rounds;
}
CREATE QUERY small_one() FOR GRAPH shop { ListAccum<INT> @@l; FOREACH i IN RANGE[1, 3] DO @@l += i; END; PRINT @@l; }
INSTALL QUERY ALL`,
    );
    assert.match(r.text, /Query installation finished\./);
  });
  after(async () => {
    await small.stop();
    fs.rmSync(heapDir, { recursive: true, force: true });
  });

  it('lets a query whose garbage, not what it keeps, fills the heap run to its end', async () => {
    const r = await callSmall('GET', '/restpp/query/shop/churn');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.results, [{ kept: 100000, rounds: 40 }]);
  });

  for (const name of ['grow', 'doubling', 'map_doubling'])
    it(`stops ${name} with an error before the process runs out of memory, and goes on serving`, async () => {
      const r = await callSmall('GET', `/restpp/query/shop/${name}`);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error, true);
      assert.equal(r.json.code, 'REST-3004');
      assert.match(
        r.json.message,
        /The query was stopped: the data-plane process's heap would be \d+ MiB in use of 64 MiB/,
      );
      const after = await callSmall('GET', '/restpp/query/shop/small_one');
      assert.deepEqual(after.json.results, [{ '@@l': [1, 2, 3] }]);
      assert.equal(exited, false);
    });
});
