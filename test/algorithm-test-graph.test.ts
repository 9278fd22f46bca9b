import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildTestGraph, loadTestGraph, TEST_GRAPH } from '../scripts/algorithm-library/test-graph.js';
import { DATA_PLANE_SECRET_HEADER, startDataPlane, type DataPlaneProcess } from '../src/dataplane/index.js';

/**
 * The algorithm library's test graph, built from a data folder laid out as the library's
 * tests/data and loaded into a real data-plane process. Needs no control-plane store.
 */

const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));

/** A data folder shaped like the library's: node lists, edge lists per shape, link-prediction files. */
function writeDataFolder(dir: string): void {
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  write('eight_nodes.csv', letters(8).join('\n'));
  write('twenty_nodes.csv', letters(20).join('\n'));
  const files = ['line', 'ring', 'hubspoke', 'hubspoke_connected_spoke', 'tree', 'dag'].map((f) => `${f}_edges.csv`);
  for (const f of files) {
    write(`unweighted_edges/${f}`, 'A,B\nB,C\nC,T\n');
    write(`weighted_edges/${f}`, 'A,B,5\nB,C,-1\nC,T,7\n');
  }
  for (const folder of ['unweighted_edges', 'weighted_edges']) write(`${folder}/empty_graph_edges.csv`, '');
  write('unweighted_edges/complete_edges.csv', 'A,A\nA,B\nB,H\n');
  write('unweighted_edges/complete_edges_directed.csv', 'A,B\nB,A\n');
  write('weighted_edges/complete_edges.csv', 'A,B,2\n');
  write('weighted_edges/complete_edges_directed.csv', 'A,B,2\nB,A,3\n');
  for (let n = 1; n <= 6; n++) {
    write(`topological_link_prediction/topo_link_pred${n}.csv`, n === 6 ? 'source,target\n' : 'source,target\nA,C\n');
  }
}

describe('the algorithm library test graph', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-algo-graph-'));
  const data = path.join(dir, 'data');
  const secret = randomBytes(24).toString('base64url');
  const headers = { [DATA_PLANE_SECRET_HEADER]: secret };
  let dp: DataPlaneProcess;

  const builtin = async (fn: string, type: string) => {
    const res = await fetch(`${dp.url}/restpp/builtins/${TEST_GRAPH}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ function: fn, type }),
    });
    return ((await res.json()) as { results: Array<Record<string, unknown>> }).results;
  };

  before(async () => {
    writeDataFolder(data);
    dp = await startDataPlane({ storeFile: path.join(dir, 'graph.db'), secret });
  });
  after(async () => {
    await dp.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('derives four edge types per shape, weights and reverse edges from the file names', () => {
    const graph = buildTestGraph(data);
    const byName = new Map(graph.edgeTypes.map((e) => [e.name, e]));
    assert.equal(graph.edgeTypes.length, 8 * 4 + 7);
    assert.deepEqual(byName.get('Line_Directed_Weighted')?.edges, [
      ['A', 'B', 5],
      ['B', 'C', -1],
      ['C', 'T', 7],
    ]);
    assert.equal(byName.get('Line')?.vertexType, 'V20');
    assert.equal(byName.get('Complete')?.vertexType, 'V8', 'a graph within the eight nodes is loaded on V8');
    assert.equal(byName.get('topo_link_directed')?.directed, true);
    assert.match(graph.schema, /CREATE DIRECTED EDGE Ring_Directed \(FROM V20, TO V20 \| FROM V8, TO V8\) WITH/);
    assert.match(
      graph.schema,
      /CREATE UNDIRECTED EDGE Tree_Weighted \(FROM V20, TO V20 \| FROM V8, TO V8, weight FLOAT\)/,
    );
  });

  it('defines and loads the graph in a real process, with the counts the files give', async () => {
    await loadTestGraph(buildTestGraph(data), dp.url, headers);
    const vertices = Object.fromEntries((await builtin('stat_vertex_number', '*')).map((r) => [r.v_type, r.count]));
    assert.deepEqual(vertices, { V20: 20, V8: 8, V4: 4 });
    const edges = Object.fromEntries((await builtin('stat_edge_number', '*')).map((r) => [r.e_type, r.count]));
    assert.equal(edges.Line, 3);
    assert.equal(edges.Complete, 3, 'a self loop is an edge');
    assert.equal(edges.Complete_Directed, 2);
    assert.equal(edges.reverse_Complete_Directed, 2);
    assert.equal(edges.Empty, 0);
    assert.equal(edges.topo_link6, 0);

    const res = await fetch(`${dp.url}/restpp/graph/${TEST_GRAPH}/edges/V20/B/Line_Weighted`, { headers });
    const answer = (await res.json()) as { results: Array<{ to_id: string; attributes: { weight: number } }> };
    assert.deepEqual(answer.results.map((e) => [e.to_id, e.attributes.weight]).sort(), [
      ['A', 5],
      ['C', -1],
    ]);
    const v4 = await fetch(`${dp.url}/restpp/graph/${TEST_GRAPH}/vertices/V4/C`, { headers });
    const c = ((await v4.json()) as { results: Array<{ attributes: Record<string, unknown> }> }).results[0]!;
    assert.equal(c.attributes.community_int, 1);
  });

  it('refuses a data folder with a file missing, naming it', () => {
    const partial = path.join(dir, 'partial');
    writeDataFolder(partial);
    fs.rmSync(path.join(partial, 'weighted_edges', 'ring_edges.csv'));
    assert.throws(() => buildTestGraph(partial), /weighted_edges\/ring_edges\.csv is missing/);
  });

  it('refuses a weighted row without a weight, naming the file and line', () => {
    const bad = path.join(dir, 'bad');
    writeDataFolder(bad);
    fs.writeFileSync(path.join(bad, 'weighted_edges', 'tree_edges.csv'), 'A,B,1\nB,C\n');
    assert.throws(() => buildTestGraph(bad), /tree_edges\.csv, line 2: expected from,to,weight/);
  });
});
