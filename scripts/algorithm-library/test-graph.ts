/**
 * The graph `graph_algorithms_testing` the algorithm library's tests run on, built from the CSV
 * files of its `tests/data` folder. The library loads that graph from a dataset of its own that
 * is not in the checkout; the schema here is the one its tests and baselines imply:
 *
 * - vertex types `V20` (twenty_nodes.csv), `V8` (eight_nodes.csv) and `V4` (A–D, with the
 *   `community_int`/`community_string` attributes the same-community tests read);
 * - per test shape (Line, Ring, …) four edge types: `Shape` (undirected), `Shape_Directed`
 *   (directed, reverse edge `reverse_Shape_Directed`), `Shape_Weighted` and
 *   `Shape_Directed_Weighted` (a FLOAT `weight`), each between V20 and V20 or V8 and V8; a file whose
 *   vertices all lie among the eight nodes (the complete graphs) is loaded on V8, the others on V20;
 * - `topo_link1`…`topo_link6` (undirected, V8) from topological_link_prediction/topo_link_predN.csv
 *   and `topo_link_directed` from topo_link_pred3.csv, the file whose out-neighbourhoods give the
 *   directed baselines (A has 4, B has 3, H in common).
 */
import fs from 'node:fs';
import path from 'node:path';

export const TEST_GRAPH = 'graph_algorithms_testing';

/** Test shape → its CSV file; the directed complete graph has a file of its own. */
const SHAPES: ReadonlyArray<{ name: string; file: string; directedFile?: string }> = [
  { name: 'Empty', file: 'empty_graph_edges.csv' },
  { name: 'Line', file: 'line_edges.csv' },
  { name: 'Ring', file: 'ring_edges.csv' },
  { name: 'Hub_Spoke', file: 'hubspoke_edges.csv' },
  { name: 'Hub_Connected_Hub_Spoke', file: 'hubspoke_connected_spoke_edges.csv' },
  { name: 'Tree', file: 'tree_edges.csv' },
  { name: 'DAG', file: 'dag_edges.csv' },
  { name: 'Complete', file: 'complete_edges.csv', directedFile: 'complete_edges_directed.csv' },
];

/**
 * The same-community baselines: A and C share a community, B and D another. The query reads a
 * STRING community with str_to_int, so the text is a number (its baselines tell A–B apart).
 */
const COMMUNITIES: Record<string, [number, string]> = {
  A: [1, '10'],
  B: [2, '20'],
  C: [1, '10'],
  D: [2, '20'],
};

export interface TestEdgeType {
  name: string;
  directed: boolean;
  weighted: boolean;
  /** The vertex type both ends are loaded on. */
  vertexType: 'V20' | 'V8';
  /** [from, to, weight] rows; weight 0 when unweighted. */
  edges: Array<[string, string, number]>;
}

export interface TestGraph {
  /** GSQL defining every type and the graph. */
  schema: string;
  /** REST++ upsert bodies for `POST /restpp/graph/graph_algorithms_testing`. */
  upserts: object[];
  edgeTypes: TestEdgeType[];
}

function readRows(file: string): string[][] {
  if (!fs.existsSync(file)) throw new Error(`the test data file ${file} is missing`);
  return fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => line.split(',').map((cell) => cell.trim()));
}

function readNodes(file: string): string[] {
  return readRows(file).map((row) => row[0]!);
}

function edgeRows(file: string, weighted: boolean, header: boolean): Array<[string, string, number]> {
  const rows = readRows(file).slice(header ? 1 : 0);
  return rows.map((row, i) => {
    const weight = weighted ? Number(row[2]) : 0;
    if (row.length < (weighted ? 3 : 2) || Number.isNaN(weight)) {
      throw new Error(`${file}, line ${i + 1 + (header ? 1 : 0)}: expected from,to${weighted ? ',weight' : ''}`);
    }
    return [row[0]!, row[1]!, weight];
  });
}

/** Reads `<dataDir>` (the library's tests/data folder) into the schema and the upserts. */
export function buildTestGraph(dataDir: string): TestGraph {
  const eight = new Set(readNodes(path.join(dataDir, 'eight_nodes.csv')));
  const twenty = readNodes(path.join(dataDir, 'twenty_nodes.csv'));
  const onEight = (edges: Array<[string, string, number]>) =>
    edges.length > 0 && edges.every(([a, b]) => eight.has(a) && eight.has(b));

  const edgeTypes: TestEdgeType[] = [];
  for (const shape of SHAPES) {
    for (const directed of [false, true]) {
      for (const weighted of [false, true]) {
        const file = directed && shape.directedFile ? shape.directedFile : shape.file;
        const folder = weighted ? 'weighted_edges' : 'unweighted_edges';
        const edges = edgeRows(path.join(dataDir, folder, file), weighted, false);
        edgeTypes.push({
          name: `${shape.name}${directed ? '_Directed' : ''}${weighted ? '_Weighted' : ''}`,
          directed,
          weighted,
          vertexType: onEight(edges) ? 'V8' : 'V20',
          edges,
        });
      }
    }
  }
  const topo = path.join(dataDir, 'topological_link_prediction');
  for (let n = 1; n <= 6; n++) {
    const edges = edgeRows(path.join(topo, `topo_link_pred${n}.csv`), false, true);
    edgeTypes.push({ name: `topo_link${n}`, directed: false, weighted: false, vertexType: 'V8', edges });
  }
  edgeTypes.push({
    name: 'topo_link_directed',
    directed: true,
    weighted: false,
    vertexType: 'V8',
    edges: edgeRows(path.join(topo, 'topo_link_pred3.csv'), false, true),
  });

  const schema = [
    'CREATE VERTEX V20 (PRIMARY_ID id STRING) WITH PRIMARY_ID_AS_ATTRIBUTE="true"',
    'CREATE VERTEX V8 (PRIMARY_ID id STRING) WITH PRIMARY_ID_AS_ATTRIBUTE="true"',
    'CREATE VERTEX V4 (PRIMARY_ID id STRING, community_int INT, community_string STRING) ' +
      'WITH PRIMARY_ID_AS_ATTRIBUTE="true"',
    ...edgeTypes.map(
      (e) =>
        `CREATE ${e.directed ? 'DIRECTED' : 'UNDIRECTED'} EDGE ${e.name} ` +
        `(FROM V20, TO V20 | FROM V8, TO V8${e.weighted ? ', weight FLOAT' : ''})` +
        (e.directed ? ` WITH REVERSE_EDGE="reverse_${e.name}"` : ''),
    ),
    `CREATE GRAPH ${TEST_GRAPH} (*)`,
  ].join('\n');

  const vertices = {
    V20: Object.fromEntries(twenty.map((id) => [id, {}])),
    V8: Object.fromEntries([...eight].map((id) => [id, {}])),
    V4: Object.fromEntries(
      Object.entries(COMMUNITIES).map(([id, [n, s]]) => [
        id,
        { community_int: { value: n }, community_string: { value: s } },
      ]),
    ),
  };
  const upserts: object[] = [{ vertices }];
  for (const e of edgeTypes) {
    if (e.edges.length === 0) continue;
    const bySource: Record<string, Record<string, Record<string, Record<string, object>>>> = {};
    for (const [from, to, weight] of e.edges) {
      const targets = ((bySource[from] ??= { [e.name]: { [e.vertexType]: {} } })[e.name]![e.vertexType] ??= {});
      targets[to] = e.weighted ? { weight: { value: weight } } : {};
    }
    upserts.push({ edges: { [e.vertexType]: bySource } });
  }
  return { schema, upserts, edgeTypes };
}

/**
 * Defines and loads the test graph in the process at `baseUrl` (`headers` carry its secret); refuses
 * with the process's own message when a statement or an upsert is refused.
 */
export async function loadTestGraph(graph: TestGraph, baseUrl: string, headers: Record<string, string>): Promise<void> {
  const defined = await fetch(`${baseUrl}/gsql/v1/statements`, { method: 'POST', headers, body: graph.schema });
  const output = await defined.text();
  if (!defined.ok || /Semantic Check Fails|Syntax Error/.test(output)) {
    throw new Error(`the test graph's schema was refused: ${output}`);
  }
  for (const body of graph.upserts) {
    const res = await fetch(`${baseUrl}/restpp/graph/${TEST_GRAPH}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { error?: boolean; message?: string };
    if (!res.ok || answer.error) throw new Error(`an upsert of the test graph was refused: ${answer.message}`);
  }
}
