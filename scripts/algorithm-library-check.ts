/**
 * Runs the GSQL algorithm library's own tests (centrality, community, path finding, topological
 * link prediction; networkx baselines) against a data-plane process: builds their test graph
 * from the library's CSV files, installs the library's .gsql files unchanged through GSQL, and
 * runs pytest on their test files unchanged with our util.py first on PYTHONPATH.
 * See docs/data-plane.md, "The algorithm library's tests".
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as DataPlane from '../src/dataplane/index.js';
import { buildTestGraph, loadTestGraph, TEST_GRAPH } from './algorithm-library/test-graph.js';

const usage = `scripts/algorithm-library-check.sh --library DIR --pytigergraph DIR [options]

  --library DIR        a checkout of tigergraph/gsql-graph-algorithms
  --pytigergraph DIR   a checkout of tigergraph/pyTigerGraph (put on PYTHONPATH)
  --checkout DIR       the Acacia checkout whose data plane runs (default: this one)
  --timeout <s>        the most pytest may take (default 600)
  --keep               keep the temporary folder (store file, test copy, junit XML)
`;

const { values } = parseArgs({
  options: {
    library: { type: 'string' },
    pytigergraph: { type: 'string' },
    checkout: { type: 'string' },
    timeout: { type: 'string', default: '600' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || !values.library || !values.pytigergraph) {
  process.stdout.write(usage);
  process.exit(values.help ? 0 : 2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const library = path.resolve(values.library);
const checkout = path.resolve(values.checkout ?? path.join(here, '..'));
const TEST_FILES = [
  'test_centrality.py',
  'test_community.py',
  'test_path_finding.py',
  'test_topological_link_prediction.py',
];
const out = (text: string) => process.stdout.write(`${text}\n`);

/** Every .gsql file under the library's algorithms/ folder; the walk is bounded by the checkout. */
function gsqlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? gsqlFiles(p) : d.name.endsWith('.gsql') ? [p] : [];
  });
}

/** The queries the chosen test files run, in the order they first appear. */
function testedQueries(testDir: string): string[] {
  const names = TEST_FILES.flatMap((f) =>
    [...fs.readFileSync(path.join(testDir, f), 'utf8').matchAll(/runAlgorithm\(\s*"(\w+)"/g)].map((m) => m[1]!),
  );
  return [...new Set(names)];
}

/** A loopback proxy adding the data-plane secret, so pyTigerGraph can call the process as it is. */
async function secretProxy(target: string, header: string, secret: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      `${target}${req.url ?? '/'}`,
      { method: req.method, headers: { ...req.headers, [header]: secret } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => res.writeHead(502).end(String(err)));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

interface Case {
  name: string;
  outcome: 'passed' | 'failed' | 'error' | 'skipped';
  reason: string;
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#10;/g, ' ')
    .replace(/&amp;/g, '&');

/** The cases of pytest's JUnit XML, each with the first line of its failure. */
function readJunit(file: string): Case[] {
  if (!fs.existsSync(file)) return [];
  const xml = fs.readFileSync(file, 'utf8');
  return [...xml.matchAll(/<testcase ([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => {
    const attr = (name: string) => unescapeXml(new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(m[1]!)?.[1] ?? '');
    const body = m[3] ?? '';
    const failed = /<(failure|error|skipped)[^>]*?message="([^"]*)"/.exec(body);
    const kind = /<(failure|error|skipped)/.exec(body)?.[1];
    const outcome = kind === 'failure' ? 'failed' : kind === 'error' ? 'error' : kind ? 'skipped' : 'passed';
    return {
      name: `${attr('classname').split('.').pop()}::${attr('name')}`,
      outcome,
      reason: unescapeXml(failed?.[2] ?? '')
        .split('\n')[0]!
        .slice(0, 300),
    };
  });
}

const { startDataPlane, DATA_PLANE_SECRET_HEADER } = (await import(
  pathToFileURL(path.join(checkout, 'src/dataplane/index.ts')).href
)) as typeof DataPlane;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-algo-check-'));
const secret = randomBytes(24).toString('base64url');
const headers = { [DATA_PLANE_SECRET_HEADER]: secret };
const dp = await startDataPlane({ storeFile: path.join(work, 'graph.db'), secret });
const proxy = await secretProxy(dp.url, DATA_PLANE_SECRET_HEADER, secret);
try {
  // A copy of the tests folder, so that the checkout stays as it is: the topological link
  // prediction tests read their baselines under graph_algorithms_baselines/, the name of the
  // dataset's folder, which the checkout does not have.
  const tests = path.join(work, 'tests');
  fs.cpSync(path.join(library, 'tests'), tests, { recursive: true });
  fs.symlinkSync('.', path.join(tests, 'data', 'baseline', 'graph_algorithms_baselines'));

  const graph = buildTestGraph(path.join(tests, 'data'));
  await loadTestGraph(graph, dp.url, headers);
  out(
    `test graph: ${graph.edgeTypes.length} edge types, ${graph.edgeTypes.reduce((n, e) => n + e.edges.length, 0)} edges`,
  );

  const files = gsqlFiles(path.join(library, 'algorithms'));
  const installed: string[] = [];
  out('');
  out('install (the library files unchanged):');
  for (const name of testedQueries(path.join(tests, 'test'))) {
    const file = files.find((f) => new RegExp(`QUERY\\s+${name}\\s*\\(`).test(fs.readFileSync(f, 'utf8')));
    if (!file) {
      out(`  ${name}: no .gsql file defines it`);
      continue;
    }
    const text = `USE GRAPH ${TEST_GRAPH}\n${fs.readFileSync(file, 'utf8')}\nINSTALL QUERY ${name}\n`;
    const res = await fetch(`${dp.url}/gsql/v1/statements`, { method: 'POST', headers, body: text });
    const output = (await res.text()).trim();
    const ok = res.ok && !/Semantic Check Fails|Syntax Error|RETURN__CODE__,2|not supported|failed/i.test(output);
    if (ok) installed.push(name);
    const why = ok ? 'installed' : `refused (${res.status}): ${output.split('\n').slice(-3).join(' | ').slice(0, 400)}`;
    out(`  ${name} (${path.relative(library, file)}): ${why}`);
  }
  out(`installed ${installed.length} of ${testedQueries(path.join(tests, 'test')).length}`);

  const junit = path.join(work, 'junit.xml');
  const port = (proxy.address() as AddressInfo).port;
  const env = {
    ...process.env,
    PYTHONPATH: [path.join(here, 'algorithm-library'), path.resolve(values.pytigergraph)].join(path.delimiter),
    ACACIA_ALGO_HOST: 'http://127.0.0.1',
    ACACIA_ALGO_PORT: String(port),
  };
  const args = ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--import-mode=append', `--junitxml=${junit}`];
  const pytest = spawn('/usr/bin/python3', [...args, ...TEST_FILES.map((f) => `test/${f}`)], {
    cwd: tests,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const timer = setTimeout(() => pytest.kill('SIGKILL'), Number(values.timeout) * 1000);
  await new Promise((resolve) => pytest.on('exit', resolve));
  clearTimeout(timer);

  const cases = readJunit(junit);
  const count = (o: Case['outcome']) => cases.filter((c) => c.outcome === o).length;
  out('');
  out(
    `pytest: ${cases.length} tests, ${count('passed')} passed, ${count('failed')} failed, ` +
      `${count('error')} errors, ${count('skipped')} skipped`,
  );
  // One line per distinct reason, then the tests it failed: the same missing construct fails many.
  const byReason = new Map<string, Case[]>();
  for (const c of cases.filter((c) => c.outcome !== 'passed')) {
    const key = `${c.outcome}: ${c.reason}`;
    byReason.set(key, [...(byReason.get(key) ?? []), c]);
  }
  for (const [reason, failed] of byReason) {
    out(`  ${failed.length} ${reason}`);
    for (const c of failed) out(`      ${c.name}`);
  }
  if (values.keep) out(`kept: ${work}`);
  process.exitCode = cases.length > 0 && count('passed') === cases.length ? 0 : 1;
} finally {
  proxy.close();
  await dp.stop();
  if (!values.keep) fs.rmSync(work, { recursive: true, force: true });
}
