import assert from 'node:assert/strict';
import { describe, it as unit } from 'node:test';
import type { Page } from 'playwright-core';
import { gsqlOutput, parameterQuery } from '../console/src/graph/gsql-text.js';
import { drawnResult, resultGraph, resultTables } from '../console/src/graph/results.js';
import { schemaModel } from '../console/src/graph/schema-model.js';
import { resultOf, type AcaciaClient, type WorkspaceRecord } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { DESKTOP, chromiumMissing, launchBrowser, settled, type Browser } from './helpers/browser.js';
import { ensureConsoleBuilt } from './helpers/console-build.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';
import { loadSocialGraph, prefixTarget, type Auth } from './helpers/tigergraph-client.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const TIMEOUT = 15_000;
const missing = chromiumMissing();
const { it, before, after } = suiteUnless(missing);

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basic: Auth = { auth: alice };
const localEnv = { ACACIA_DRIVER: 'local', ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_LOG_LEVEL: 'warn' };

/** Signs in with `key` and opens the workspace's Graph tab. */
async function openGraphTab(browser: Browser, server: TestServer, key: string, path: string): Promise<Page> {
  const page = await browser.newPage(DESKTOP);
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Workgroups', level: 1 }).waitFor({ timeout: TIMEOUT });
  await page.goto(`${server.url}/console${path}/graph`);
  await page.getByRole('heading', { name: 'Graph', level: 2 }).waitFor({ timeout: TIMEOUT });
  await settled(page);
  return page;
}

/** Runs GSQL in the tab's editor and waits for what it printed. */
async function runGsql(page: Page, text: string): Promise<string> {
  const editor = page.getByTestId('gsql-editor');
  await editor.fill(text);
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/graph/request') && r.request().postData()?.includes('statements') === true,
  );
  await page.getByRole('button', { name: 'Run GSQL' }).click();
  await answered;
  await page.getByRole('button', { name: 'Run GSQL' }).waitFor();
  return page.getByTestId('gsql-output').innerText({ timeout: TIMEOUT });
}

describe(`web console: a workspace's Graph tab (${storeName})`, () => {
  let server: TestServer;
  let browser: Browser;
  let wg = '';
  let ws: WorkspaceRecord;
  let pagePath = '';
  /** A user whose one grant is workspace-member on the workspace: reads it, changes nothing. */
  let memberKey = '';
  let member: AcaciaClient;

  before(async () => {
    ensureConsoleBuilt();
    server = await startTestServer(localEnv);
    const c = server.client;
    wg = await newWorkgroup(c, 'console-graph');
    const created = resultOf(await c.workspaces.create(wg, { name: 'graph-tab' }));
    const active = await c.waitForWorkspace(wg, created.workspace_id!, (w) => w.status === 'Active', {
      attempts: 600,
      intervalMs: 50,
    });
    assert.equal(active?.status, 'Active', JSON.stringify(active));
    ws = active!;
    resultOf(await c.dbUsers.create(wg, ws.workspace_id!, alice));
    // A graph of 3 people and 2 Knows edges, loaded through the gateway as a client would.
    await loadSocialGraph(prefixTarget(server.running.gatewayUrl, ws.workspace_id!), basic);
    pagePath = `/workgroups/${wg}/workspaces/${ws.workspace_id}`;

    const invitation = resultOf(
      await c.users.invite({ email: 'member@example.com', roles: [`workspace-member:${ws.workspace_id}`] }),
    );
    const key = resultOf(await c.withKey(undefined).users.accept({ token: invitation.invite_token }));
    memberKey = key.plaintext_key!;
    member = c.withKey(memberKey);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws the schema: each vertex type with its count, each edge type with its ends and count', async () => {
    const page = await openGraphTab(browser, server, server.bootstrapKey, pagePath);
    try {
      assert.equal(await page.getByTestId('graph-name').innerText(), 'Graph social');
      const diagram = page.getByTestId('schema-diagram');
      await diagram.waitFor({ timeout: TIMEOUT });
      assert.equal(await diagram.getAttribute('aria-label'), 'Schema of graph social');
      assert.equal(await diagram.locator('[data-node="Person"]').count(), 1);
      assert.match((await diagram.locator('[data-node="Person"]').textContent()) ?? '', /Person\s*3 vertices/);
      // Knows joins Person to itself: one loop, without an arrowhead (undirected).
      const knows = diagram.locator('[data-edge="Knows"]');
      assert.equal(await knows.count(), 1);
      assert.equal(await knows.locator('path').getAttribute('marker-end'), null);
      const vertices = await page.getByTestId('vertex-types').locator('tbody tr').allInnerTexts();
      assert.deepEqual(
        vertices.map((r) => r.split('\t')),
        [['Person', '3']],
      );
      const edges = await page.getByTestId('edge-types').locator('tbody tr').allInnerTexts();
      assert.deepEqual(
        edges.map((r) => r.split('\t')),
        [['Knows', 'Person — Person (undirected)', '2']],
      );
    } finally {
      await page.close();
    }
  });

  it('runs DDL in the editor, shows its output, and draws the new types and graph', async () => {
    const page = await openGraphTab(browser, server, server.bootstrapKey, pagePath);
    try {
      const created = await runGsql(
        page,
        'CREATE VERTEX City (PRIMARY_ID name STRING)\nCREATE DIRECTED EDGE Lives (FROM Person, TO City)\n' +
          'CREATE GRAPH places (Person, City, Lives)',
      );
      assert.match(created, /City/);
      assert.match(created, /places/);
      // Two graphs now: a picker, and the new graph's schema drawn with a directed arrow.
      const picker = page.getByRole('combobox', { name: 'Graph' });
      await picker.waitFor({ timeout: TIMEOUT });
      await picker.selectOption('places');
      await page.getByRole('img', { name: 'Schema of graph places' }).waitFor({ timeout: TIMEOUT });
      const lives = page.getByTestId('schema-diagram').locator('[data-edge="Lives"] path');
      assert.match((await lives.getAttribute('marker-end')) ?? '', /^url\(#arrow/);
      const edges = await page.getByTestId('edge-types').locator('tbody tr').allInnerTexts();
      assert.deepEqual(
        edges.map((r) => r.split('\t')),
        [['Lives', 'Person → City', '0']],
      );

      const listed = await runGsql(page, 'ls');
      assert.match(listed, /VERTEX City\(PRIMARY_ID name STRING\)/);
      assert.match(listed, /DIRECTED EDGE Lives\(FROM Person, TO City\)/);
      assert.equal(await page.getByRole('heading', { name: 'Output', level: 3 }).count(), 1);
    } finally {
      await page.close();
    }
  });

  it("shows a GSQL syntax error's text, line and column, and changes nothing", async () => {
    const page = await openGraphTab(browser, server, server.bootstrapKey, pagePath);
    try {
      const before = await page.getByTestId('vertex-types').locator('tbody tr').allInnerTexts();
      const output = await runGsql(page, 'ls\nCREATE VERTEX Broken (PRIMARY_ID id STRING,, x INT)');
      assert.match(output, /^Syntax Error: Encountered "," at line 2, column \d+\./);
      await page.getByRole('heading', { name: 'Failed (return code 211)', level: 3 }).waitFor();
      assert.equal(await page.getByTestId('gsql-output').getAttribute('role'), 'alert');
      const after = await page.getByTestId('vertex-types').locator('tbody tr').allInnerTexts();
      assert.deepEqual(after, before);
      const schema = assertOk(
        await server.client.workspaces.graphRequest(wg, ws.workspace_id!, {
          method: 'GET',
          path: '/gsql/v1/schema/graphs/social',
        }),
      );
      assert.doesNotMatch(schema.text, /Broken/);
    } finally {
      await page.close();
    }
  });

  it('lets a workspace member read the schema but not run GSQL, in the page and at the API', async () => {
    const page = await openGraphTab(browser, server, memberKey, pagePath);
    try {
      await page.getByTestId('schema-diagram').waitFor({ timeout: TIMEOUT });
      assert.match(await page.getByTestId('graph-read-only').innerText(), /workspace admin or above/);
      assert.equal(await page.getByTestId('gsql-editor').count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Run query' }).count(), 0);
    } finally {
      await page.close();
    }
    const id = ws.workspace_id!;
    const counts = assertOk(
      await member.workspaces.graphRequest(wg, id, {
        method: 'POST',
        path: '/restpp/builtins/social',
        body: '{"function":"stat_vertex_number","type":"*"}',
      }),
    );
    assert.equal(counts.status, 200);
    assert.deepEqual((JSON.parse(counts.text) as { results: unknown }).results, [{ v_type: 'Person', count: 3 }]);
    const refused = await member.workspaces.graphRequest(wg, id, {
      method: 'POST',
      path: '/gsql/v1/statements',
      body: 'DROP ALL',
    });
    const detail = assertError(refused, 403, 'Forbidden', 'x-api-key');
    assert.match(detail.Reason, /edit this workspace/);
    for (const path of ['/restpp/query/social/q', '/gsql/v1/queries/interpret'])
      assertError(
        await member.workspaces.graphRequest(wg, id, { method: path.startsWith('/gsql') ? 'POST' : 'GET', path }),
        403,
        'Forbidden',
        'x-api-key',
      );
    // Nothing was dropped.
    const schema = assertOk(
      await member.workspaces.graphRequest(wg, id, { method: 'GET', path: '/gsql/v1/schema/graphs' }),
    );
    assert.match(schema.text, /"graphName":"social"/);
  });

  it('sends only the requests the console needs: any other data-plane path is refused, naming the path', async () => {
    const c = server.client;
    const id = ws.workspace_id!;
    for (const [method, path] of [
      ['GET', '/restpp/graph/social/vertices/Person'],
      ['POST', '/restpp/graph/social'],
      ['GET', '/gsql/v1/schema/graphs/../../etc'],
      ['GET', '/gsql/v1/statements'],
      ['POST', '/gsql/v1/secrets'],
    ] as const) {
      const detail = assertError(await c.workspaces.graphRequest(wg, id, { method, path }), 400, 'Bad-Request', 'path');
      assert.match(detail.Reason, /not a request the console sends/);
    }
    assertError(
      await c.workspaces.graphRequest(wg, 'no-such-workspace', { method: 'GET', path: '/gsql/v1/schema/graphs' }),
      404,
      'Not-Found',
      'workspaceID',
    );
  });

  it('runs an interpreted query and shows its vertices as a table and a drawn graph', async () => {
    const page = await openGraphTab(browser, server, server.bootstrapKey, pagePath);
    try {
      await page
        .getByRole('combobox', { name: 'Graph' })
        .selectOption('social')
        .catch(() => undefined);
      await runGsql(page, 'INTERPRET QUERY () FOR GRAPH social { S = {Person.*}; PRINT S; }');
      // The results are drawn with the output they come in: no wait beyond runGsql's.
      const results = page.getByTestId('query-results');
      assert.equal(await results.count(), 1, await page.getByTestId('gsql-output').innerText());
      const ids = await results.locator('table tbody tr td:first-child').allInnerTexts();
      assert.deepEqual(ids.sort(), ['ann', 'bob', 'cat']);
      assert.equal(await page.getByTestId('result-graph').locator('.graph-node').count(), 3);
      assert.equal(await page.getByTestId('result-graph-note').innerText(), '3 vertices, 0 edges.');
    } finally {
      await page.close();
    }
  });
});

describe(`web console: the Graph tab of a workspace without graph data (${storeName})`, () => {
  let server: TestServer;
  let browser: Browser;
  let pagePath = '';

  before(async () => {
    ensureConsoleBuilt();
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_LOG_LEVEL: 'warn' });
    const wg = await newWorkgroup(server.client, 'console-graph-simulated');
    const ws = await activeWorkspace(server.client, wg, { name: 'records-only' });
    pagePath = `/workgroups/${wg}/workspaces/${ws.workspace_id}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('says the simulated driver holds no graph, and how to get one', async () => {
    const page = await openGraphTab(browser, server, server.bootstrapKey, pagePath);
    try {
      const empty = page.getByTestId('graph-empty');
      await empty.waitFor({ timeout: TIMEOUT });
      assert.match(await empty.innerText(), /holds no graph data[\s\S]*ACACIA_DRIVER=local/);
      assert.equal(await page.getByTestId('gsql-editor').count(), 0);
      assert.equal(await page.getByRole('alert').count(), 0);
    } finally {
      await page.close();
    }
  });
});

// The Graph tab's reading of TigerGraph's JSON, without a browser: the shapes as TigerGraph documents them.
describe("the Graph tab's reading of TigerGraph's answers", () => {
  const person = (id: string, age: number) => ({ v_id: id, v_type: 'Person', attributes: { age } });
  const knows = (from: string, to: string) => ({
    e_type: 'Knows',
    from_id: from,
    from_type: 'Person',
    to_id: to,
    to_type: 'Person',
    directed: false,
    attributes: {},
  });

  unit('makes a table per printed value: vertices by id, type and attributes; edges by ends; scalars', () => {
    const results = [{ S: [person('ann', 31), person('bob', 42)] }, { '@@total': 2, E: [knows('ann', 'bob')] }];
    const tables = resultTables(results);
    assert.deepEqual(
      tables.map((t) => [t.title, t.columns, t.rows]),
      [
        [
          'S (PRINT 1)',
          ['v_id', 'v_type', 'age'],
          [
            ['ann', 'Person', '31'],
            ['bob', 'Person', '42'],
          ],
        ],
        ['@@total (PRINT 2)', ['value'], [['2']]],
        [
          'E (PRINT 2)',
          ['e_type', 'from_type', 'from_id', 'to_type', 'to_id'],
          [['Knows', 'Person', 'ann', 'Person', 'bob']],
        ],
      ],
    );
  });

  unit('bounds a table at 200 rows and says how many it left out', () => {
    const many = Array.from({ length: 250 }, (_, i) => person(`p${i}`, i));
    const [table] = resultTables([{ S: many }]);
    assert.equal(table!.rows.length, 200);
    assert.equal(table!.omitted, 50);
  });

  unit('finds each vertex once and each edge, with the ends of edges whose vertices were not printed', () => {
    const graph = resultGraph([{ S: [person('ann', 31)] }, { T: [person('ann', 31)], E: [knows('ann', 'cat')] }]);
    assert.deepEqual(
      graph.vertices.map((v) => v.id),
      ['ann'],
    );
    assert.equal(graph.edges.length, 1);
    const drawn = drawnResult([{ S: [person('ann', 31)] }, { E: [knows('ann', 'cat')] }], 100);
    assert.deepEqual(
      drawn.nodes.map((n) => n.label),
      ['ann', 'cat'],
    );
    assert.deepEqual(drawn.edges, [{ from: 0, to: 1, label: 'Knows', directed: false }]);
  });

  unit('draws at most the bound: the vertices past it and their edges are left out, and counted', () => {
    const vertices = Array.from({ length: 150 }, (_, i) => person(`p${i}`, i));
    const edges = Array.from({ length: 149 }, (_, i) => knows(`p${i}`, `p${i + 1}`));
    const drawn = drawnResult([{ S: vertices, E: edges }], 100);
    assert.equal(drawn.nodes.length, 100);
    assert.equal(drawn.total, 150);
    assert.equal(drawn.edges.length, 99);
    assert.equal(drawn.edgeTotal, 149);
  });

  unit("reads the schema's edge pairs: one pair, several, and any-to-any (`*`)", () => {
    const model = schemaModel(
      {
        GraphName: 'g',
        VertexTypes: [{ Name: 'A' }, { Name: 'B' }],
        EdgeTypes: [
          {
            Name: 'e1',
            IsDirected: true,
            FromVertexTypeName: 'A',
            ToVertexTypeName: 'B',
            EdgePairs: [{ From: 'A', To: 'B' }],
          },
          {
            Name: 'e2',
            IsDirected: false,
            FromVertexTypeName: '*',
            ToVertexTypeName: '*',
            EdgePairs: [
              { From: 'A', To: 'A' },
              { From: 'B', To: 'A' },
            ],
          },
          { Name: 'e3', IsDirected: true, FromVertexTypeName: '*', ToVertexTypeName: '*', EdgePairs: [] },
        ],
      },
      new Map([['A', 2]]),
      new Map([['e1', 5]]),
    );
    assert.deepEqual(model.vertexTypes, [
      { name: 'A', count: 2 },
      { name: 'B', count: undefined },
    ]);
    assert.deepEqual(
      model.edgeTypes.map((e) => [e.name, e.directed, e.pairs.map((p) => `${p.from}>${p.to}`), e.count]),
      [
        ['e1', true, ['A>B'], 5],
        ['e2', false, ['A>A', 'B>A'], undefined],
        ['e3', true, ['*>*'], undefined],
      ],
    );
  });

  unit("splits GSQL's return code from its output, and writes parameters as a query string", () => {
    assert.deepEqual(gsqlOutput('Syntax Error: x\n__GSQL__RETURN__CODE__,211'), {
      output: 'Syntax Error: x',
      returnCode: 211,
    });
    assert.deepEqual(gsqlOutput('ok'), { output: 'ok', returnCode: 0 });
    assert.equal(parameterQuery('a=1\nb = x y\n\nb=z&c'), 'a=1&b=x%20y&b=z&c=');
  });
});
