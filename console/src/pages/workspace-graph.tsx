import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import {
  DataPlaneError,
  graphClient,
  jsonOf,
  successJson,
  type DataPlaneAnswer,
  type GraphClient,
} from '../api/graph.js';
import { ApiError } from '../api/http.js';
import type { WorkspaceRecord } from '../api/types.js';
import { GraphSvg, type DrawnEdge, type DrawnNode } from '../graph/graph-svg.js';
import { gsqlOutput, parameterQuery } from '../graph/gsql-text.js';
import { circleLayout, forceLayout } from '../graph/layout.js';
import { drawnResult, resultTables, type ResultTable } from '../graph/results.js';
import { countsOf, schemaModel, type SchemaModel } from '../graph/schema-model.js';
import { useLoad } from '../ui/data.js';
import { Empty, LoadState, Section } from '../ui/page.js';

/** The most vertices a result graph draws; the tables still list them all (up to their own bound). */
export const MAX_DRAWN = 100;

type GraphList = { kind: 'graphs'; names: string[] } | { kind: 'no-graph-data'; message: string };

/** A refusal as the page shows it: the API's reasons, or the data plane's code and message. */
function errorText(err: unknown): string {
  if (err instanceof ApiError)
    return err.details.map((d) => `${d.FieldName ? `${d.FieldName}: ` : ''}${d.Reason}`).join(' ') || err.message;
  if (err instanceof DataPlaneError) return `${err.code ? `${err.code}: ` : ''}${err.message} (HTTP ${err.status})`;
  return err instanceof Error ? err.message : String(err);
}

async function loadGraphs(client: GraphClient): Promise<GraphList> {
  const answer = await client.graphs();
  const json = jsonOf(answer);
  if (answer.status === 501 && json?.code === 'no-graph-data')
    return { kind: 'no-graph-data', message: json.message ?? '' };
  const graphs = successJson(answer).graphs;
  const names = Array.isArray(graphs)
    ? graphs.map((g) => (g as { graphName?: unknown }).graphName).filter((n): n is string => typeof n === 'string')
    : [];
  return { kind: 'graphs', names };
}

async function loadSchema(client: GraphClient, graph: string): Promise<SchemaModel> {
  const [schema, vertices, edges] = await Promise.all([
    client.schema(graph),
    client.vertexCounts(graph),
    client.edgeCounts(graph),
  ]);
  return schemaModel(
    successJson(schema).results,
    countsOf(successJson(vertices).results, 'v_type'),
    countsOf(successJson(edges).results, 'e_type'),
  );
}

const count = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en'));

/** The schema drawn: a node per vertex type (with its count), an arrow per edge type and pair. */
function SchemaDiagram({ model }: { model: SchemaModel }) {
  const width = 720;
  const height = model.vertexTypes.length > 2 ? 420 : 260;
  const index = new Map(model.vertexTypes.map((v, i) => [v.name, i]));
  const nodes: DrawnNode[] = model.vertexTypes.map((v, i) => ({
    label: v.name,
    detail: `${count(v.count)} vertices`,
    colour: i,
  }));
  const edges: DrawnEdge[] = [];
  for (const e of model.edgeTypes)
    for (const p of e.pairs) {
      const from = index.get(p.from);
      const to = index.get(p.to);
      // `*` pairs join every vertex type: listed in the table below, not drawn as one arrow per pair.
      if (from !== undefined && to !== undefined) edges.push({ from, to, label: e.name, directed: e.directed });
    }
  const points = circleLayout(nodes.length, width, height, 75);
  if (!nodes.length) return <Empty>The graph has no vertex types yet.</Empty>;
  return (
    <GraphSvg
      nodes={nodes}
      edges={edges}
      points={points}
      width={width}
      height={height}
      title={`Schema of graph ${model.graph}`}
      testId="schema-diagram"
    />
  );
}

function SchemaTables({ model }: { model: SchemaModel }) {
  return (
    <div className="graph-types">
      <div>
        <h3 id="vertex-types-heading">Vertex types</h3>
        <table className="table" data-testid="vertex-types" aria-labelledby="vertex-types-heading">
          <thead>
            <tr>
              <th scope="col">Vertex type</th>
              <th scope="col">Vertices</th>
            </tr>
          </thead>
          <tbody>
            {model.vertexTypes.map((v) => (
              <tr key={v.name}>
                <td className="strong" data-label="Vertex type">
                  {v.name}
                </td>
                <td data-label="Vertices">{count(v.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div>
        <h3 id="edge-types-heading">Edge types</h3>
        <table className="table" data-testid="edge-types" aria-labelledby="edge-types-heading">
          <thead>
            <tr>
              <th scope="col">Edge type</th>
              <th scope="col">Joins</th>
              <th scope="col">Edges</th>
            </tr>
          </thead>
          <tbody>
            {model.edgeTypes.map((e) => (
              <tr key={e.name}>
                <td className="strong" data-label="Edge type">
                  {e.name}
                </td>
                <td data-label="Joins">
                  {e.pairs.map((p) => `${p.from} ${e.directed ? '→' : '—'} ${p.to}`).join(', ')}
                  {e.directed ? '' : ' (undirected)'}
                </td>
                <td data-label="Edges">{count(e.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function SchemaSection({ client, graph, version }: { client: GraphClient; graph: string; version: number }) {
  const schema = useLoad(`schema:${graph}`, () => loadSchema(client, graph));
  const { reload } = schema;
  // Read again after each GSQL run, keeping what is shown until the answer comes.
  useEffect(() => {
    if (version) reload();
  }, [version, reload]);
  return (
    <Section title="Schema" id="graph-schema">
      <LoadState error={schema.error} loading={!schema.data}>
        {schema.data ? (
          <>
            <SchemaDiagram model={schema.data} />
            <SchemaTables model={schema.data} />
          </>
        ) : null}
      </LoadState>
    </Section>
  );
}

function ResultTableView({ table }: { table: ResultTable }) {
  return (
    <div className="result-table">
      <h3>{table.title}</h3>
      <table className="table" aria-label={table.title}>
        <thead>
          <tr>
            {table.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) => (
                <td key={j} className="mono" data-label={table.columns[j]}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {table.omitted ? <p className="muted small">{table.omitted.toLocaleString('en')} more rows not shown.</p> : null}
    </div>
  );
}

/** The vertices and edges of a result, drawn: at most MAX_DRAWN vertices, saying so when there are more. */
function ResultGraphView({ results }: { results: unknown }) {
  const drawing = useMemo(() => drawnResult(results, MAX_DRAWN), [results]);
  if (!drawing.nodes.length) return null;
  const width = 720;
  const height = drawing.nodes.length > 12 ? 520 : 360;
  const points = forceLayout(
    drawing.nodes.length,
    drawing.edges.map((e) => [e.from, e.to] as const),
    width,
    height,
    50,
  );
  return (
    <div className="result-graph">
      <GraphSvg
        nodes={drawing.nodes}
        edges={drawing.edges}
        points={points}
        width={width}
        height={height}
        title="Vertices and edges of the result"
        testId="result-graph"
      />
      <p className="muted small" data-testid="result-graph-note">
        {drawing.total > drawing.nodes.length
          ? `Drawn: ${drawing.nodes.length} of ${drawing.total.toLocaleString('en')} vertices ` +
            `(at most ${MAX_DRAWN}), ${drawing.edges.length} of ${drawing.edgeTotal.toLocaleString('en')} edges.`
          : `${drawing.nodes.length} vertices, ${drawing.edges.length} edges.`}
      </p>
    </div>
  );
}

/** A query's results: a table per printed value and, when they hold vertices or edges, the graph they make. */
function ResultsView({ results }: { results: unknown }) {
  const tables = resultTables(results);
  return (
    <div className="results" data-testid="query-results">
      <ResultGraphView results={results} />
      {tables.length ? (
        tables.map((t, i) => <ResultTableView key={i} table={t} />)
      ) : (
        <Empty>The query printed nothing.</Empty>
      )}
    </div>
  );
}

/** A printed output that is a query's JSON (INTERPRET QUERY, RUN QUERY): its results. */
function printedResults(output: string): unknown {
  try {
    const parsed = JSON.parse(output) as { results?: unknown };
    return Array.isArray(parsed.results) ? parsed.results : undefined;
  } catch {
    return undefined;
  }
}

function TextArea({
  label,
  name,
  rows,
  defaultValue,
  placeholder,
  testId,
}: {
  label: string;
  name: string;
  rows: number;
  defaultValue?: string;
  placeholder?: string;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        className="mono code-input"
        spellCheck={false}
        defaultValue={defaultValue}
        placeholder={placeholder}
        data-testid={testId}
      />
    </div>
  );
}

type EditorResult =
  { kind: 'output'; output: string; returnCode: number; truncated: boolean } | { kind: 'error'; text: string };

/** GSQL statements, run as the GSQL shell runs them; what they print is shown as printed. */
function EditorSection({ client, graph, onRan }: { client: GraphClient; graph: string | undefined; onRan(): void }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<EditorResult>();
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const text = String(new FormData(e.currentTarget).get('gsql') ?? '');
    if (!text.trim()) return;
    setBusy(true);
    try {
      const answer: DataPlaneAnswer = await client.statements(graph, text);
      if (answer.status !== 200) setResult({ kind: 'error', text: errorText(failure(answer)) });
      else setResult({ kind: 'output', ...gsqlOutput(answer.text), truncated: answer.truncated });
      onRan();
    } catch (err) {
      setResult({ kind: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  const results = result?.kind === 'output' && result.returnCode === 0 ? printedResults(result.output) : undefined;
  return (
    <Section title="GSQL" id="graph-gsql">
      <form onSubmit={(e) => void submit(e)} aria-label="GSQL editor">
        <TextArea
          label={graph ? `Statements (graph ${graph})` : 'Statements'}
          name="gsql"
          rows={8}
          placeholder={'ls\nCREATE VERTEX Person (PRIMARY_ID id STRING, age INT)'}
          testId="gsql-editor"
        />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Running…' : 'Run GSQL'}
          </button>
        </div>
      </form>
      {result?.kind === 'error' ? (
        <div className="banner banner-error" role="alert" data-testid="gsql-error">
          <p>{result.text}</p>
        </div>
      ) : null}
      {result?.kind === 'output' ? (
        <div className="subsection">
          <h3>{result.returnCode === 0 ? 'Output' : `Failed (return code ${result.returnCode})`}</h3>
          <pre
            className={result.returnCode === 0 ? 'gsql-output' : 'gsql-output gsql-output-error'}
            data-testid="gsql-output"
            role={result.returnCode === 0 ? undefined : 'alert'}
          >
            {result.output || '(no output)'}
          </pre>
          {result.truncated ? <p className="muted small">The output was cut: it was longer than 8 MiB.</p> : null}
          {results !== undefined ? <ResultsView results={results} /> : null}
        </div>
      ) : null}
    </Section>
  );
}

/** The data plane's refusal as an error: TigerGraph's code and message when it sent JSON. */
function failure(answer: DataPlaneAnswer): DataPlaneError {
  const json = jsonOf(answer);
  return new DataPlaneError(answer.status, json?.code, json?.message ?? answer.text);
}

type QueryResult = { kind: 'results'; results: unknown } | { kind: 'error'; text: string };
type QueryMode = 'installed' | 'interpreted';
const modes: Array<[QueryMode, string]> = [
  ['installed', 'Installed query'],
  ['interpreted', "Interpreted (the query's text)"],
];

/** Runs an installed query (REST++) or an interpreted one, with parameters, and shows its results. */
function RunQuerySection({ client, graph }: { client: GraphClient; graph: string }) {
  const [mode, setMode] = useState<QueryMode>('installed');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<QueryResult>();
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const params = parameterQuery(String(data.get('parameters') ?? ''));
    setBusy(true);
    try {
      const answer =
        mode === 'installed'
          ? await client.installed(graph, String(data.get('query') ?? '').trim(), params)
          : await client.interpret(String(data.get('text') ?? ''), params);
      setResult({ kind: 'results', results: successJson(answer).results });
    } catch (err) {
      setResult({ kind: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title="Run a query" id="graph-run-query">
      <form onSubmit={(e) => void submit(e)} aria-label="Run a query">
        <fieldset className="mode-choice">
          <legend>Query</legend>
          {modes.map(([value, label]) => (
            <label key={value}>
              <input type="radio" name="mode" checked={mode === value} onChange={() => setMode(value)} /> {label}
            </label>
          ))}
        </fieldset>
        {mode === 'installed' ? (
          <div className="field">
            <label htmlFor="run-query-name">Query name</label>
            <input id="run-query-name" name="query" type="text" spellCheck={false} autoComplete="off" />
          </div>
        ) : (
          <TextArea
            label="Query text"
            name="text"
            rows={6}
            placeholder={`INTERPRET QUERY () FOR GRAPH ${graph} {\n  S = {ANY};\n  PRINT S;\n}`}
          />
        )}
        <TextArea label="Parameters (name=value, one a line)" name="parameters" rows={3} placeholder="p=10" />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Running…' : 'Run query'}
          </button>
        </div>
      </form>
      {result?.kind === 'error' ? (
        <div className="banner banner-error" role="alert" data-testid="query-error">
          <p>{result.text}</p>
        </div>
      ) : null}
      {result?.kind === 'results' ? <ResultsView results={result.results} /> : null}
    </Section>
  );
}

/** The Graph tab: the schema as a diagram with counts, a GSQL editor and a query runner (for who may run GSQL). */
export function GraphTab({ ws, canRun }: { ws: WorkspaceRecord; canRun: boolean }) {
  const wg = ws.workgroup_id ?? '';
  const id = ws.workspace_id ?? '';
  const client = useMemo(() => graphClient(wg, id), [wg, id]);
  // Bumped after each GSQL run: a statement may have changed the schema or the counts.
  const [version, setVersion] = useState(0);
  const graphs = useLoad(`graphs:${id}`, () => loadGraphs(client));
  const ran = () => {
    graphs.reload();
    setVersion((v) => v + 1);
  };
  const [picked, setPicked] = useState<string>();
  if (ws.status !== 'Active')
    return (
      <Section title="Graph" id="graph">
        <Empty>The graph is shown while the workspace is Active; it is {ws.status} now.</Empty>
      </Section>
    );
  const list = graphs.data;
  if (list?.kind === 'no-graph-data')
    return (
      <Section title="Graph" id="graph">
        <div data-testid="graph-empty">
          <Empty>This workspace holds no graph data.</Empty>
          <p className="muted">
            The simulated driver keeps a workspace as a record, with no data plane behind it. Start Acacia with{' '}
            <code>ACACIA_DRIVER=local</code> for workspaces that hold a graph and run GSQL.
          </p>
        </div>
      </Section>
    );
  const names = list?.names ?? [];
  const graph = picked !== undefined && names.includes(picked) ? picked : names[0];
  return (
    <div className="stack" data-testid="graph-tab">
      <LoadState error={graphs.error} loading={!list}>
        <Section
          title="Graph"
          id="graph"
          actions={
            names.length > 1 ? (
              <label className="graph-picker">
                Graph{' '}
                <select value={graph} onChange={(e) => setPicked(e.target.value)}>
                  {names.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
            ) : null
          }
        >
          {graph ? (
            <p className="muted" data-testid="graph-name">
              Graph <strong>{graph}</strong>
              {names.length > 1 ? ` (one of ${names.length})` : ''}
            </p>
          ) : (
            <Empty>
              No graph yet.{' '}
              {canRun
                ? 'Create its types and the graph with GSQL below.'
                : 'One who may edit the workspace can create it.'}
            </Empty>
          )}
          {canRun ? null : (
            <p className="muted" data-testid="graph-read-only">
              You can read the schema. Running GSQL and queries takes a key and a role that may edit this workspace (a
              workspace admin or above): a statement or a query may change the schema and the data.
            </p>
          )}
        </Section>
        {graph ? <SchemaSection client={client} graph={graph} version={version} /> : null}
        {canRun ? <EditorSection client={client} graph={graph} onRan={ran} /> : null}
        {canRun && graph ? <RunQuerySection client={client} graph={graph} /> : null}
      </LoadState>
    </div>
  );
}
