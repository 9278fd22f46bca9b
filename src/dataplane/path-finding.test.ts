import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dataPlaneCall, type DataPlaneReply } from '../../test/helpers/data-plane.js';
import { startDataPlane, type DataPlaneProcess } from './index.js';

/** The path-finding endpoints of a real data-plane process, on the graph pyTigerGraph's own tests use. */

const vertices: [number, number][] = [10, 20, 30, 40, 50, 60, 70, 80].map((id) => [id, id < 60 ? 999 : 900]);
// prettier-ignore
const edges: [number, number, number][] = [
  [10, 20, 999], [20, 30, 999], [30, 40, 999], [40, 50, 900], [10, 60, 900], [60, 70, 900],
  [70, 80, 999], [80, 40, 999], [80, 20, 999], [70, 40, 900], [30, 60, 999],
];

describe('path finding: POST /restpp/shortestpath and /restpp/allpaths', () => {
  let dir: string;
  let dp: DataPlaneProcess;
  const secret = randomBytes(16).toString('hex');

  const call = dataPlaneCall(() => dp.url, secret);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-paths-'));
    dp = await startDataPlane({ storeFile: path.join(dir, 'graph.db'), secret });
    const ddl = await call(
      'POST',
      '/gsql/v1/statements',
      `CREATE VERTEX v (PRIMARY_ID id INT, a01 INT)
CREATE DIRECTED EDGE loop (FROM v, TO v, a01 INT) WITH REVERSE_EDGE="loop_back"
CREATE UNDIRECTED EDGE link (FROM v, TO v)
CREATE VERTEX other (PRIMARY_ID id STRING)
CREATE GRAPH g (v, loop, link)
CREATE GRAPH h (other)`,
    );
    assert.equal(ddl.status, 200);
    const loop: Record<string, Record<string, unknown>> = {};
    for (const [from, to, a01] of edges) (loop[from] ??= {})[to] = { a01: { value: a01 } };
    const up = await call('POST', '/restpp/graph/g', {
      vertices: { v: Object.fromEntries(vertices.map(([id, a01]) => [id, { a01: { value: a01 } }])) },
      edges: { v: Object.fromEntries(Object.entries(loop).map(([from, to]) => [from, { loop: { v: to } }])) },
    });
    assert.equal(up.status, 200, JSON.stringify(up.json));
  });
  after(async () => {
    await dp?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ends = { sources: [{ type: 'v', id: 10 }], targets: [{ type: 'v', id: 50 }] };
  const ids = (r: DataPlaneReply) =>
    (r.json.results[0].vertices as { v_id: string }[]).map((v) => Number(v.v_id)).sort();
  const pairs = (r: DataPlaneReply) =>
    (r.json.results[0].edges as { from_id: string; to_id: string }[]).map((e) => `${e.from_id}-${e.to_id}`).sort();
  const sorted = (list: string[]) => [...list].sort();

  it('finds one shortest path, following directed edges forwards only', async () => {
    const r = await call('POST', '/restpp/shortestpath/g', ends);
    assert.equal(r.status, 200);
    assert.equal(r.json.error, false);
    const found = pairs(r);
    assert.ok(
      JSON.stringify(found) === JSON.stringify(sorted(['10-20', '20-30', '30-40', '40-50'])) ||
        JSON.stringify(found) === JSON.stringify(sorted(['10-60', '60-70', '70-40', '40-50'])),
      JSON.stringify(found),
    );
    assert.equal(ids(r).length, 5);
    const edge = r.json.results[0].edges[0];
    assert.deepEqual(Object.keys(edge).sort(), [
      'attributes',
      'directed',
      'e_type',
      'from_id',
      'from_type',
      'to_id',
      'to_type',
    ]);
    assert.equal(edge.e_type, 'loop');
    assert.deepEqual(r.json.results[0].vertices[0].attributes, { a01: r.json.results[0].vertices[0].attributes.a01 });

    // Backwards there is no path: the reverse edge is not a way back.
    const back = await call('POST', '/restpp/shortestpath/g', { sources: ends.targets, targets: ends.sources });
    assert.deepEqual(back.json.results, [{ vertices: [], edges: [] }]);
  });

  it('finds all shortest paths, within maxLength and the filters', async () => {
    const all = await call('POST', '/restpp/shortestpath/g', { ...ends, allShortestPaths: true });
    assert.deepEqual(ids(all), [10, 20, 30, 40, 50, 60, 70]);
    assert.deepEqual(pairs(all), sorted(['10-20', '20-30', '30-40', '40-50', '10-60', '60-70', '70-40']));

    const short = await call('POST', '/restpp/shortestpath/g', { ...ends, maxLength: 3 });
    assert.deepEqual(short.json.results, [{ vertices: [], edges: [] }]);

    const vf = { ...ends, allShortestPaths: true, vertexFilters: [{ type: 'v', condition: 'a01>950' }] };
    assert.deepEqual(
      pairs(await call('POST', '/restpp/shortestpath/g', vf)),
      sorted(['10-20', '20-30', '30-40', '40-50']),
    );
    const ef = { ...ends, allShortestPaths: true, edgeFilters: [{ type: 'loop', condition: 'a01<950' }] };
    assert.deepEqual(
      pairs(await call('POST', '/restpp/shortestpath/g', ef)),
      sorted(['10-60', '60-70', '70-40', '40-50']),
    );
  });

  it('finds every edge on a path of at most maxLength', async () => {
    const at = async (maxLength: number, extra = {}) =>
      call('POST', '/restpp/allpaths/g', { ...ends, maxLength, ...extra });
    const four = ['10-20', '20-30', '30-40', '40-50', '10-60', '60-70', '70-40'];
    assert.deepEqual(pairs(await at(4)), sorted(four));
    assert.deepEqual(ids(await at(4)), [10, 20, 30, 40, 50, 60, 70]);
    assert.deepEqual(pairs(await at(5)), sorted([...four, '70-80', '80-40']));
    assert.deepEqual(pairs(await at(6)), sorted([...four, '70-80', '80-40', '30-60']));
    const vf = await at(5, { vertexFilters: [{ type: 'v', condition: 'a01>950' }] });
    assert.deepEqual(pairs(vf), sorted(['10-20', '20-30', '30-40', '40-50']));
    const ef = await at(5, { edgeFilters: [{ type: 'loop', condition: 'a01<950' }] });
    assert.deepEqual(pairs(ef), sorted(['10-60', '60-70', '70-40', '40-50']));
    // The root layout (3.x port 9000) serves it too.
    assert.deepEqual(pairs(await call('POST', '/allpaths/g', { ...ends, maxLength: 4 })), sorted(four));
  });

  it('follows undirected edges either way', async () => {
    const link = await call('POST', '/restpp/graph/g', { edges: { v: { 80: { link: { v: { 10: {} } } } } } });
    assert.equal(link.status, 200, JSON.stringify(link.json));
    const r = await call('POST', '/restpp/shortestpath/g', {
      sources: [{ type: 'v', id: 10 }],
      targets: [{ type: 'v', id: 80 }],
    });
    assert.deepEqual(pairs(r), ['10-80']);
    assert.equal(r.json.results[0].edges[0].directed, false);
    const del = await call('DELETE', '/restpp/graph/g/edges/v/80/link/v/10');
    assert.equal(del.status, 200);
  });

  it('refuses bad requests in TigerGraph shape, naming the field', async () => {
    const refused = async (urlPath: string, body: unknown, status: number, code: string, message: RegExp) => {
      const r = await call('POST', urlPath, body);
      assert.equal(r.status, status, JSON.stringify(r.json));
      assert.equal(r.json.error, true);
      assert.equal(r.json.code, code);
      assert.match(r.json.message, message);
    };
    await refused('/restpp/allpaths/g', ends, 400, 'REST-30000', /'maxLength' is required/);
    await refused(
      '/restpp/shortestpath/g',
      { ...ends, maxLength: 0 },
      400,
      'REST-30000',
      /'maxLength' must be a whole/,
    );
    await refused('/restpp/shortestpath/g', { ...ends, maxLength: 101 }, 400, 'REST-30000', /from 1 to 100/);
    await refused(
      '/restpp/shortestpath/g',
      { targets: ends.targets },
      400,
      'REST-30000',
      /'sources' must be a non-empty/,
    );
    await refused('/restpp/shortestpath/g', { ...ends, targets: [{ id: 1 }] }, 400, 'REST-30000', /'targets' must be/);
    await refused(
      '/restpp/shortestpath/g',
      { ...ends, sources: [{ type: 'nope', id: 1 }] },
      400,
      'REST-30000',
      /vertex_type = 'nope'/,
    );
    await refused(
      '/restpp/shortestpath/g',
      { ...ends, sources: [{ type: 'v', id: 'x' }] },
      400,
      'REST-30001',
      /vertex id is not valid/,
    );
    await refused(
      '/restpp/shortestpath/g',
      { ...ends, edgeFilters: [{ type: 'zzz', condition: 'a01>1' }] },
      400,
      'REST-30000',
      /edge_type = 'zzz'/,
    );
    await refused(
      '/restpp/shortestpath/g',
      { ...ends, vertexFilters: [{ type: 'v', condition: 'shoe>1' }] },
      400,
      'REST-30001',
      /'shoe'/,
    );
    await refused('/restpp/shortestpath/g', '{', 400, 'REST-2001', /not valid JSON/);
    await refused('/restpp/shortestpath/nograph', ends, 404, 'REST-1004', /'nograph'/);
    // A type of another graph is not this graph's.
    await refused(
      '/restpp/shortestpath/g',
      { ...ends, sources: [{ type: 'other', id: 'a' }] },
      400,
      'REST-30000',
      /'other'/,
    );
  });
});
