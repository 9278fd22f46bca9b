import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  DataPlaneStartError,
  readStoreStats,
  restoreStore,
  snapshotStore,
  startDataPlane,
  type DataPlaneProcess,
} from '../src/dataplane/index.js';
import { dataPlaneCall, interpreted, type DataPlaneReply } from './helpers/data-plane.js';

/**
 * The data-plane process, started through the launcher as a driver starts it, and used over
 * HTTP as the gateway and TigerGraph clients use it. Needs no control-plane store.
 */

/** A refusal in TigerGraph's shape: HTTP status, `error: true`, the code, and a message naming the culprit. */
function assertRefused(reply: DataPlaneReply, status: number, code: string, message: RegExp): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.json.error, true, reply.text);
  assert.equal(reply.json.code, code, reply.text);
  assert.match(reply.json.message, message);
}

const schema = `CREATE VERTEX Person (PRIMARY_ID name STRING, age INT, joined DATETIME, vip BOOL)
  WITH primary_id_as_attribute="true"
CREATE VERTEX Company (id UINT PRIMARY KEY, title STRING)
CREATE DIRECTED EDGE follows (FROM Person, TO Person, since DATETIME) WITH REVERSE_EDGE="followed_by"
CREATE UNDIRECTED EDGE works_at (FROM Person, TO Company, role STRING)
CREATE GRAPH social (*)
USE GRAPH social`;

const people = {
  alice: { age: { value: 34 }, joined: { value: '2021-04-01 09:30:00' }, vip: { value: true } },
  bob: { age: { value: 27 }, joined: { value: '2022-11-15' } },
  carol: { age: { value: 45 } },
  dave: { age: { value: 19 } },
};

describe('data-plane process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-dataplane-'));
  const storeFile = path.join(dir, 'graph.db');
  const secret = randomBytes(24).toString('base64url');
  const started: DataPlaneProcess[] = [];
  let rw: DataPlaneProcess;
  let call: ReturnType<typeof dataPlaneCall>;

  const start = async (file: string, readOnly = false) => {
    const dp = await startDataPlane({ storeFile: file, readOnly, secret, tgVersion: '4.1.3', bodyLimitBytes: 1 << 20 });
    started.push(dp);
    return dp;
  };

  before(async () => {
    rw = await start(storeFile);
    call = dataPlaneCall(() => rw.url, secret);
  });
  after(async () => {
    await Promise.all(started.map((dp) => dp.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers only requests that carry the shared secret', async () => {
    assert.equal((await call('GET', '/api/ping')).json.message, 'pong');
    for (const presented of [null, 'wrong', `${secret}x`]) {
      const reply = await call('GET', '/api/ping', undefined, { secret: presented });
      assertRefused(reply, 401, 'REST-10016', /data-plane secret/);
    }
    assertRefused(await call('POST', '/restpp/graph/social', {}, { secret: null }), 401, 'REST-10016', /secret/);
  });

  it('answers echo (with and without a trailing slash) and a version getVer() can parse', async () => {
    for (const [method, p] of [
      ['GET', '/restpp/echo'],
      ['GET', '/restpp/echo/'],
      ['POST', '/restpp/echo'],
      ['GET', '/echo'],
    ] as const)
      assert.deepEqual((await call(method, p)).json, { error: false, message: 'Hello GSQL' }, `${method} ${p}`);
    const version = await call('GET', '/restpp/version');
    // pyTigerGraph: lines 3 to the one before last are "name version hash date time zone"; the version sits between
    // "_".
    const lines: string[] = version.json.message.split('\n');
    const product = lines.slice(3, -1).find((l) => l.split(/\s+/)[0] === 'product')!;
    assert.equal(/_(.+)_/.exec(product.split(/\s+/)[1]!)![1], '4.1.3');
    assert.equal(product.split(/\s+/).length, 6);
  });

  it('defines a schema with GSQL and serves it in the shapes getSchema() parses', async () => {
    const ddl = await call('POST', '/gsql/v1/statements', schema, { contentType: 'text/plain' });
    assert.equal(ddl.status, 200);
    assert.equal(
      ddl.text,
      [
        'Successfully created vertex types: [Person].',
        'Successfully created vertex types: [Company].',
        'Successfully created edge types: [follows].',
        'Successfully created edge types: [works_at].',
        'The graph social is created.',
        "Using graph 'social'",
      ].join('\n'),
    );
    const v4 = await call('GET', '/gsql/v1/schema/graphs/social');
    const v3 = await call('GET', '/gsqlserver/gsql/schema?graph=social');
    assert.deepEqual(v3.json, v4.json, 'the 3.x path answers the same');
    const s = v4.json.results;
    assert.equal(s.GraphName, 'social');
    assert.deepEqual(
      s.VertexTypes.map((v: { Name: string }) => v.Name),
      ['Person', 'Company'],
    );
    const personType = s.VertexTypes[0];
    assert.deepEqual(personType.PrimaryId.AttributeName, 'name');
    assert.deepEqual(
      personType.Attributes.map((a: { AttributeName: string; AttributeType: { Name: string } }) => [
        a.AttributeName,
        a.AttributeType.Name,
      ]),
      [
        ['age', 'INT'],
        ['joined', 'DATETIME'],
        ['vip', 'BOOL'],
      ],
    );
    const follows = s.EdgeTypes.find((e: { Name: string }) => e.Name === 'follows');
    assert.deepEqual(
      [follows.IsDirected, follows.FromVertexTypeName, follows.ToVertexTypeName, follows.Config.REVERSE_EDGE],
      [true, 'Person', 'Person', 'followed_by'],
    );
    assert.equal(s.EdgeTypes.find((e: { Name: string }) => e.Name === 'works_at').IsDirected, false);
    assert.deepEqual((await call('GET', '/gsql/v1/udt/tuples?graph=social')).json.results, []);
    assert.deepEqual((await call('GET', '/gsql/v1/schema/graphs')).json.graphs, [
      {
        graphName: 'social',
        vertices: ['Person', 'Company'],
        edges: ['follows', 'followed_by', 'works_at'],
      },
    ]);
  });

  it('runs GSQL sent form-encoded to the 3.x endpoint, and says clearly what it does not run', async () => {
    // pyTigerGraph's fallback sends quote_plus(text) without a content type.
    const body = encodeURIComponent('CREATE VERTEX Tag (PRIMARY_ID t STRING)\nLS').replace(/%20/g, '+');
    const ls = await call('POST', '/gsqlserver/gsql/file', body);
    assert.match(ls.text, /^Successfully created vertex types: \[Tag\]\.\n---- Global vertices, edges, and all graphs/);
    assert.match(ls.text, /- Graph social\(Person:v, Company:v, follows:e, followed_by:e, works_at:e\)/);
    const query = await call('POST', '/gsql/v1/statements', 'CREATE QUERY q() FOR GRAPH social {\n PRINT 1 +; }');
    assert.equal(query.status, 200);
    assert.match(query.text, /Syntax Error: Encountered ";" at line 2, column 11\./);
    assert.match(query.text, /__GSQL__RETURN__CODE__,211$/);
    for (const method of ['GET', 'POST'] as const)
      assertRefused(
        await call(method, '/restpp/query/social/hello', method === 'GET' ? undefined : '{}'),
        404,
        'REST-1000',
        /Endpoint is not found from url = '\/restpp\/query\/social\/hello'/,
      );
    for (const p of ['/gsql/v1/queries/interpret', '/gsqlserver/interpreted_query']) {
      const reply = await call('POST', p, 'INTERPRET QUERY () FOR GRAPH social {\n  PRINT ; }');
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.json.error, true);
      assert.equal(reply.json.code, 'GSQL-1001');
      assert.match(reply.json.message, /Encountered ";" at line 2, column 9\./);
    }
  });

  it('upserts vertices and edges and counts what it accepted', async () => {
    const reply = await call('POST', '/restpp/graph/social', {
      vertices: { Person: people },
      edges: {
        Person: {
          alice: { follows: { Person: { bob: { since: { value: '2023-01-01 00:00:00' } }, carol: {} } } },
          bob: { follows: { Person: { carol: {} } }, works_at: { Company: { 7: { role: { value: 'engineer' } } } } },
        },
      },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json.results, [{ accepted_vertices: 4, accepted_edges: 4 }]);
    assert.equal(reply.json.error, false);
    assert.equal(typeof reply.json.version.schema, 'number');
  });

  it('reads vertices back by id, by type, with filter, sort, select and limit', async () => {
    const one = await call('GET', '/restpp/graph/social/vertices/Person/alice');
    assert.deepEqual(one.json.results, [
      {
        v_id: 'alice',
        v_type: 'Person',
        attributes: { name: 'alice', age: 34, joined: '2021-04-01 09:30:00', vip: true },
      },
    ]);
    const all = await call('GET', '/restpp/graph/social/vertices/Person');
    assert.deepEqual(
      all.json.results.map((v: { v_id: string }) => v.v_id),
      ['alice', 'bob', 'carol', 'dave'],
    );
    const filtered = await call('GET', '/restpp/graph/social/vertices/Person?filter=age>30,vip=false');
    assert.deepEqual(
      filtered.json.results.map((v: { v_id: string }) => v.v_id),
      ['carol'],
    );
    const byName = await call('GET', `/restpp/graph/social/vertices/Person?filter=${encodeURIComponent('name="bob"')}`);
    assert.deepEqual(byName.json.results[0].attributes.joined, '2022-11-15 00:00:00');
    const sorted = await call('GET', '/restpp/graph/social/vertices/Person?sort=-age&limit=2&select=age');
    assert.deepEqual(sorted.json.results, [
      { v_id: 'carol', v_type: 'Person', attributes: { age: 45 } },
      { v_id: 'alice', v_type: 'Person', attributes: { age: 34 } },
    ]);
    const count = await call('GET', '/restpp/graph/social/vertices/Person?count_only=true&filter=age<30');
    assert.deepEqual(count.json.results, [{ v_type: 'Person', count: 2 }]);
    const company = await call('GET', '/restpp/graph/social/vertices/Company/007');
    assert.deepEqual(company.json.results[0], {
      v_id: '7',
      v_type: 'Company',
      attributes: { id: 7, title: '' },
    });
  });

  it('reads the edges of a vertex, the reverse edge from the other end, by edge type and target', async () => {
    const edges = async (p: string) =>
      (await call('GET', `/restpp/graph/social/edges/${p}`)).json.results.map(
        (e: { e_type: string; from_id: string; to_id: string; directed: boolean }) =>
          `${e.e_type}:${e.from_id}->${e.to_id}${e.directed ? '' : ' (undirected)'}`,
      );
    assert.deepEqual(await edges('Person/alice'), ['follows:alice->bob', 'follows:alice->carol']);
    assert.deepEqual(await edges('Person/bob'), [
      'follows:bob->carol',
      'followed_by:bob->alice',
      'works_at:bob->7 (undirected)',
    ]);
    assert.deepEqual(await edges('Person/carol/followed_by'), ['followed_by:carol->alice', 'followed_by:carol->bob']);
    assert.deepEqual(await edges('Person/carol/followed_by/Person/bob'), ['followed_by:carol->bob']);
    assert.deepEqual(await edges('Company/7'), ['works_at:7->bob (undirected)']);
    assert.deepEqual(await edges('Person/alice/_/Person?filter=since>"2022-01-01"'), ['follows:alice->bob']);
    const full = await call('GET', '/restpp/graph/social/edges/Person/alice/follows/Person/bob');
    assert.deepEqual(full.json.results, [
      {
        e_type: 'follows',
        directed: true,
        from_id: 'alice',
        from_type: 'Person',
        to_id: 'bob',
        to_type: 'Person',
        attributes: { since: '2023-01-01 00:00:00' },
      },
    ]);
    const counted = await call('GET', '/restpp/graph/social/edges/Person/bob?count_only=true');
    assert.deepEqual(counted.json.results, [
      { e_type: 'follows', count: 1 },
      { e_type: 'followed_by', count: 1 },
      { e_type: 'works_at', count: 1 },
    ]);
  });

  it('counts through the stat_vertex_number and stat_edge_number builtins', async () => {
    const builtin = async (body: unknown) => (await call('POST', '/restpp/builtins/social', body)).json.results;
    assert.deepEqual(await builtin({ function: 'stat_vertex_number', type: '*' }), [
      { v_type: 'Person', count: 4 },
      { v_type: 'Company', count: 1 },
    ]);
    assert.deepEqual(await builtin({ function: 'stat_vertex_number', type: 'Person' }), [
      { v_type: 'Person', count: 4 },
    ]);
    assert.deepEqual(await builtin({ function: 'stat_edge_number', type: '*' }), [
      { e_type: 'follows', count: 3 },
      { e_type: 'followed_by', count: 3 },
      { e_type: 'works_at', count: 1 },
    ]);
    assert.deepEqual(await builtin({ function: 'stat_edge_number', type: 'works_at', from_type: 'Company' }), [
      { e_type: 'works_at', count: 1 },
    ]);
    assert.deepEqual(await builtin({ function: 'stat_vertex_attr', type: 'Person' }), [
      {
        v_type: 'Person',
        attributes: { age: { MIN: 19, MAX: 45, AVG: 31.25 }, vip: { TRUE: 1, FALSE: 3 } },
      },
    ]);
    const skipped = await call('POST', '/restpp/builtins/social', { function: 'stat_edge_attr', type: 'follows' });
    assert.equal(skipped.status, 200, 'a type without numbers is "skipped", as getEdgeStats() expects');
    assert.equal(skipped.json.error, true);
    assert.match(skipped.json.message, /stat_edge_attr is skip/);
    assertRefused(
      await call('POST', '/restpp/builtins/social', { function: 'stat_vertex_number', type: 'Planet' }),
      400,
      'GSQL-7004',
      /vertex type 'Planet' does not exist in graph 'social'/,
    );
    assertRefused(
      await call('POST', '/restpp/builtins/social', { function: 'stat_everything', type: 'Person' }),
      400,
      'REST-30000',
      /"stat_everything" is not supported/,
    );
  });

  it('refuses wrong types, unknown attributes and types in TigerGraph’s error shape, changing nothing', async () => {
    const upsert = (body: unknown) => call('POST', '/restpp/graph/social', body);
    assertRefused(
      await upsert({ vertices: { Person: { erin: {}, frank: { age: { value: 'forty' } } } } }),
      400,
      'REST-30200',
      /'age' of vertex type 'Person'.*'forty' is not an INT/,
    );
    assertRefused(
      await upsert({ vertices: { Person: { erin: { joined: { value: '2024-13-01' } } } } }),
      400,
      'REST-30200',
      /'joined'.*'2024-13-01' is not a valid date/,
    );
    assertRefused(
      await upsert({ vertices: { Person: { erin: { height: { value: 180 } } } } }),
      400,
      'REST-30200',
      /attribute 'height' does not exist in vertex type 'Person'/,
    );
    assertRefused(
      await call('POST', '/restpp/graph/social?ack=some', { vertices: { Person: { erin: {} } } }),
      400,
      'REST-30001',
      /'ack' must be "all" or "none"/,
    );
    assertRefused(await upsert({ vertices: { Robot: { r2: {} } } }), 400, 'REST-30200', /vertex type 'Robot'/);
    assertRefused(
      await upsert({ edges: { Person: { erin: { likes: { Person: { bob: {} } } } } } }),
      400,
      'REST-30200',
      /edge type 'likes'/,
    );
    assertRefused(await call('POST', '/restpp/graph/social', '{"vertices": '), 400, 'REST-2001', /not valid JSON/);
    assertRefused(await call('GET', '/restpp/graph/social/vertices/Person/nobody'), 404, '601', /'nobody'.*Person/);
    assertRefused(await call('GET', '/restpp/graph/social/vertices/Robot'), 400, 'REST-30000', /vertex_type = 'Robot'/);
    assertRefused(
      await call('GET', '/restpp/graph/social/vertices/Person?filter=shoe=3'),
      400,
      'REST-30001',
      /attribute 'shoe'/,
    );
    assertRefused(await call('GET', '/restpp/graph/antisocial/vertices/Person'), 404, 'REST-1004', /'antisocial'/);
    assertRefused(await call('GET', '/restpp/nowhere'), 404, 'REST-1000', /Endpoint is not found/);
    assertRefused(
      await call('POST', '/restpp/graph/social', {
        vertices: { Person: { big: { name: { value: 'x'.repeat(1 << 20) } } } },
      }),
      413,
      'REST-30000',
      /larger than the limit/,
    );
    const count = await call('GET', '/restpp/graph/social/vertices/Person?count_only=true');
    assert.deepEqual(count.json.results, [{ v_type: 'Person', count: 4 }], 'no refused request wrote anything');
  });

  it('serves a snapshot read-only: the snapshot’s data, later writes unseen, writes refused', async () => {
    const snapshot = path.join(dir, 'snapshot-1.db');
    const { size_bytes } = snapshotStore(storeFile, snapshot);
    assert.ok(size_bytes > 0);
    const ro = await start(snapshot, true);
    const roCall = dataPlaneCall(() => ro.url, secret);
    await call('POST', '/restpp/graph/social', { vertices: { Person: { erin: { age: { value: 50 } } } } });
    const seen = await roCall('GET', '/restpp/graph/social/vertices/Person');
    assert.deepEqual(
      seen.json.results.map((v: { v_id: string }) => v.v_id),
      ['alice', 'bob', 'carol', 'dave'],
    );
    assertRefused(
      await roCall('POST', '/restpp/graph/social', { vertices: { Person: { zed: {} } } }),
      403,
      'READ-ONLY',
      /read-only/,
    );
    assertRefused(await roCall('DELETE', '/restpp/graph/social/vertices/Person/alice'), 403, 'READ-ONLY', /read-only/);
    assertRefused(await roCall('DELETE', '/restpp/graph/social/edges/Person/alice'), 403, 'READ-ONLY', /read-only/);
    const ddl = await roCall('POST', '/gsql/v1/statements', 'DROP ALL');
    assert.match(ddl.text, /read-only/);
    assert.equal((await roCall('GET', '/gsql/v1/schema/graphs/social')).json.results.VertexTypes.length, 2);
    await ro.stop();
    assert.equal(ro.isAlive(), false);
  });

  it('deletes vertices with their edges, and a restore from a snapshot brings everything back', async () => {
    const snapshot = path.join(dir, 'snapshot-2.db');
    snapshotStore(storeFile, snapshot);
    const before = readStoreStats(storeFile);
    assert.deepEqual([before.vertex_count, before.edge_count], [6, 4]);

    // A query after each delete sees it: the traversal view drops the deleted rows, or is built again.
    const queried = () =>
      interpreted(
        call,
        `INTERPRET QUERY () FOR GRAPH social {
  SumAccum<INT> @@follows;
  P = {Person.*};
  F = SELECT s FROM P:s -(follows:e)-> Person:t ACCUM @@follows += 1;
  PRINT P.size() AS people, @@follows AS follows;
}`,
      );
    const stored = async () => ({
      people: (await call('GET', '/restpp/graph/social/vertices/Person')).json.results.length,
      follows: (await call('POST', '/restpp/builtins/social', { function: 'stat_edge_number', type: 'follows' })).json
        .results[0].count,
    });
    assert.deepEqual(await queried(), { people: 5, follows: 3 });

    const removed = await call('DELETE', '/restpp/graph/social/vertices/Person/bob');
    assert.deepEqual(removed.json.results, { v_type: 'Person', deleted_vertices: 1 });
    assert.deepEqual(await queried(), await stored());
    const edgesLeft = await call('POST', '/restpp/builtins/social', { function: 'stat_edge_number', type: '*' });
    assert.deepEqual(
      edgesLeft.json.results.map((r: { count: number }) => r.count),
      [1, 1, 0],
      'the edges of bob went with him',
    );
    const filtered = await call('DELETE', '/restpp/graph/social/vertices/Person?filter=age<30');
    assert.deepEqual(filtered.json.results, { v_type: 'Person', deleted_vertices: 1 });
    assert.deepEqual(await queried(), await stored());
    const edgeGone = await call('DELETE', '/restpp/graph/social/edges/Person/carol/followed_by/Person/alice');
    assert.deepEqual(edgeGone.json.results, [{ e_type: 'followed_by', deleted_edges: 1 }]);
    assert.deepEqual(await queried(), { people: 3, follows: 0 });
    const stats = await call('GET', '/_dataplane/stats');
    assert.deepEqual([stats.json.vertex_count, stats.json.edge_count], [4, 0]);

    // The process keeps running: it reloads the schema and sees the restored data at its next request.
    restoreStore(snapshot, storeFile);
    const back = await call('GET', '/restpp/graph/social/vertices/Person');
    assert.deepEqual(
      back.json.results.map((v: { v_id: string }) => v.v_id),
      ['alice', 'bob', 'carol', 'dave', 'erin'],
    );
    assert.deepEqual(
      (await call('GET', '/restpp/graph/social/edges/Person/bob')).json.results.length,
      3,
      'edges came back too',
    );
    const after = readStoreStats(storeFile);
    assert.deepEqual([after.vertex_count, after.edge_count], [6, 4]);
  });

  it('starts, reports its pid and liveness, stops; a process that cannot serve its file fails to start', async () => {
    const dp = await start(path.join(dir, 'another.db'));
    assert.ok(dp.pid > 0 && dp.port > 0 && dp.port !== rw.port);
    assert.equal(dp.isAlive(), true);
    process.kill(dp.pid, 'SIGKILL');
    assert.deepEqual(await dp.exited, { code: null, signal: 'SIGKILL' });
    assert.equal(dp.isAlive(), false);
    await assert.rejects(
      startDataPlane({ storeFile: path.join(dir, 'missing.db'), readOnly: true, secret }),
      (err: unknown) => err instanceof DataPlaneStartError && /exited .* before listening/.test(err.message),
    );
    const graceful = await start(path.join(dir, 'third.db'));
    await graceful.stop();
    assert.deepEqual(await graceful.exited, { code: 0, signal: null }, 'SIGTERM is a clean exit');
  });
});
