import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe } from 'node:test';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { resultOf, type AcaciaClient, type WorkspaceRecord } from '../src/client/index.js';
import { DESKTOP, chromiumMissing, launchBrowser, settled, type Browser } from './helpers/browser.js';
import { ensureConsoleBuilt } from './helpers/console-build.js';
import { gatewayRequest } from './helpers/gateway.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';
import { loadSocialGraph, prefixTarget, type Auth } from './helpers/tigergraph-client.js';
import { newWorkgroup } from './helpers/workspaces.js';

const TIMEOUT = 15_000;
/** A phone as the console is checked at: 390 × 844 CSS pixels. */
const PHONE = { width: 390, height: 844 };
const VIEWPORTS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

const missing = chromiumMissing();
const { it, before, after } = suiteUnless(missing);
const run = promisify(execFile);

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basic: Auth = { auth: alice };
// Real workspaces: each Active one is a data-plane process holding its graph, so the page has counts to show.
const localEnv = { ACACIA_DRIVER: 'local', ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_LOG_LEVEL: 'warn' };

/** Polls the workspace until `until` accepts it: a data-plane process starts in real time. */
async function waitFor(
  c: AcaciaClient,
  wg: string,
  ws: string,
  until: (w: WorkspaceRecord) => boolean,
  what: string,
): Promise<WorkspaceRecord> {
  const last = await c.waitForWorkspace(wg, ws, until, { attempts: 600, intervalMs: 50 });
  assert.ok(last && until(last), `workspace ${ws} never became ${what}: ${JSON.stringify(last)}`);
  return last;
}

/** The element's content fits its box: nothing cut off on the right. */
async function notClipped(page: Page, selector: string): Promise<void> {
  const boxes = page.locator(selector);
  assert.ok((await boxes.count()) > 0, `${selector} is on the page`);
  for (let i = 0; i < (await boxes.count()); i++) {
    const { scrollWidth, clientWidth } = await boxes
      .nth(i)
      .evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    assert.ok(scrollWidth <= clientWidth, `${selector} #${i} is clipped: ${scrollWidth} > ${clientWidth}`);
  }
}

/** Lets the page render what it did with the last answer (two animation frames). */
async function settledFrame(page: Page): Promise<void> {
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

/** The element lies wholly inside the viewport. */
async function inViewport(page: Page, selector: string, viewport: { width: number; height: number }) {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box, `${selector} is shown`);
  assert.ok(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height,
    `${selector} at ${JSON.stringify(box)} is outside ${viewport.width}x${viewport.height}`,
  );
}

describe(`web console: a workspace's page (${storeName})`, () => {
  let server: TestServer;
  let browser: Browser;
  let wg = '';
  let ws: WorkspaceRecord;
  let pagePath = '';

  const open = async (viewport: { width: number; height: number }): Promise<Page> => {
    const page = await browser.newPage(viewport);
    await page.goto(`${server.url}/console`);
    await page.getByLabel('API key').fill(server.bootstrapKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workgroups', level: 1 }).waitFor({ timeout: TIMEOUT });
    await page.goto(`${server.url}/console${pagePath}`);
    await page.getByRole('heading', { name: 'workspace-page', level: 1 }).waitFor({ timeout: TIMEOUT });
    await settled(page);
    return page;
  };
  const endpoint = () => `${server.running.gatewayUrl}/w/${ws.workspace_id}/`;

  before(async () => {
    ensureConsoleBuilt();
    server = await startTestServer(localEnv);
    const c = server.client;
    wg = await newWorkgroup(c, 'console-workspace');
    const created = resultOf(await c.workspaces.create(wg, { name: 'workspace-page' }));
    ws = await waitFor(c, wg, created.workspace_id!, (w) => w.status === 'Active', 'Active');
    resultOf(await c.dbUsers.create(wg, ws.workspace_id!, alice));
    // A graph of 3 vertices and 2 edges, loaded through the gateway; the reconciler's next look counts it.
    await loadSocialGraph(prefixTarget(server.running.gatewayUrl, ws.workspace_id!), basic);
    resultOf(await c.moveClock({ advance_seconds: 31 }));
    ws = await waitFor(c, wg, ws.workspace_id!, (w) => w.vertex_count === 3 && w.edge_count === 2, 'counted');
    pagePath = `/workgroups/${wg}/workspaces/${ws.workspace_id}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("tells the console the gateway's address, as the server listens on it", async () => {
    const res = await fetch(`${server.url}/console/config.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const config = (await res.json()) as { gateway_url: string; version: string };
    assert.equal(config.gateway_url, server.running.gatewayUrl);
    assert.match(config.gateway_url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  for (const [label, viewport] of VIEWPORTS) {
    it(`shows the id, the gateway URL, the host once, the graph's counts and a Connect box (${label})`, async () => {
      const page = await open(viewport);
      try {
        assert.equal(await page.getByTestId('workspace-id').innerText(), ws.workspace_id);
        assert.equal(await page.getByTestId('workspace-gateway-url').innerText(), endpoint());
        const overview = await page.locator('section[aria-labelledby="overview-heading"]').innerText();
        assert.equal(overview.split(ws.proxy_host).length - 1, 1, `the host once in: ${overview}`);
        assert.equal(await page.getByTestId('workspace-vertices').innerText(), '3');
        assert.equal(await page.getByTestId('workspace-edges').innerText(), '2');

        const connect = page.getByTestId('connect');
        assert.equal(await connect.getByTestId('connect-id').innerText(), ws.workspace_id);
        assert.equal(await connect.getByTestId('connect-gateway-url').innerText(), endpoint());
        assert.equal(await connect.getByTestId('connect-host').innerText(), ws.proxy_host);
        await connect.getByRole('button', { name: 'Copy the id' }).waitFor();
        // Nothing is wider than the screen: no sideways scrolling to read a command.
        await notClipped(page, 'html');
        await notClipped(page, '[data-testid="connect"] pre');
      } finally {
        await page.close();
      }
    });
  }

  it('shows a curl command that works as shown once the password is put in, and a pyTigerGraph snippet', async () => {
    const page = await open(DESKTOP);
    try {
      const curl = await page.getByTestId('connect-curl').innerText();
      assert.ok(curl.includes("'alice:<password>'"), `the workspace's database user and a placeholder: ${curl}`);
      assert.ok(curl.includes(`${endpoint()}restpp/echo`), curl);
      const { stdout } = await run('sh', ['-c', curl.replace('<password>', alice.password)], { timeout: TIMEOUT });
      const answer = JSON.parse(stdout) as { error: boolean; message: string };
      assert.equal(answer.error, false, stdout);
      assert.match(answer.message, /Hello GSQL/);
      // As shown, with the placeholder still in, the gateway refuses it: the command is the real thing.
      const refused = await run('sh', ['-c', curl.replace(/^curl -s/, 'curl -s -o /dev/null -w %{http_code}')]);
      assert.equal(refused.stdout, '401');

      const python = await page.getByTestId('connect-python').innerText();
      const port = new URL(server.running.gatewayUrl).port;
      for (const line of [
        `host="http://${ws.proxy_host}"`,
        'username="alice"',
        'password="<password>"',
        `restppPort="${port}"`,
        `gsPort="${port}"`,
      ])
        assert.ok(python.includes(line), `${line} in ${python}`);
      // What the snippet relies on: the gateway's port names the workspace by that host.
      const echo = await gatewayRequest(server.running.gatewayUrl, 'GET', '/restpp/echo', {
        auth: alice,
        host: `${ws.proxy_host}:${port}`,
      });
      assert.equal(echo.status, 200, JSON.stringify(echo.json));
    } finally {
      await page.close();
    }
  });

  for (const [label, viewport] of VIEWPORTS) {
    it(`shows a confirmation dialog opened from a table row with all its text (${label})`, async () => {
      const page = await open(viewport);
      try {
        await page.getByRole('button', { name: 'Delete database user alice' }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete alice?' });
        await dialog.waitFor();
        await notClipped(page, 'dialog[open] h2');
        await notClipped(page, 'dialog[open] .dialog-message p');
        await notClipped(page, 'dialog[open]');
        await inViewport(page, 'dialog[open]', viewport);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
      } finally {
        await page.close();
      }
    });
  }

  it('puts every item of the main navigation in view on a phone', async () => {
    const page = await open(PHONE);
    try {
      const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
      const count = await links.count();
      assert.equal(count, 6);
      for (let i = 0; i < count; i++) {
        const box = await links.nth(i).boundingBox();
        assert.ok(box, `nav item ${i} is shown`);
        assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `nav item ${i} at ${JSON.stringify(box)}`);
        assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `nav item ${i} at ${JSON.stringify(box)}`);
      }
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor({ timeout: TIMEOUT });
    } finally {
      await page.close();
    }
  });

  it('keeps the last data under an offline banner while the server is down, then drops the banner', async () => {
    const page = await open(DESKTOP);
    try {
      await page.getByTestId('live-mode').getByText('Live').waitFor({ timeout: TIMEOUT });
      assert.equal(await page.getByTestId('offline-banner').count(), 0, 'no banner while the server answers');
      const workspaceRead = `/workspaces/${ws.workspace_id}`;
      // A read of the workspace that gets no answer: the page's next poll once the server is down.
      const failedRead = page.waitForEvent('requestfailed', {
        predicate: (request) => new URL(request.url()).pathname.endsWith(workspaceRead),
        timeout: TIMEOUT,
      });
      await server.running.close();
      const banner = page.getByTestId('offline-banner');
      await banner.waitFor({ timeout: TIMEOUT });
      assert.match(await banner.innerText(), /Offline/);
      await page.getByTestId('live-mode').getByText('Offline').waitFor({ timeout: TIMEOUT });
      await failedRead;
      await settledFrame(page);
      assert.equal(await page.getByTestId('workspace-id').innerText(), ws.workspace_id);
      assert.equal(await page.getByTestId('workspace-vertices').innerText(), '3');
      assert.equal(await page.getByTestId('connect-gateway-url').innerText(), endpoint());
      assert.equal(await page.getByRole('alert').count(), 0, 'no error in place of the data');
      assert.ok(await banner.isVisible(), 'the banner stays while the server is down');

      await server.restart();
      // The page's own poll may reconnect before the click lands (the button is then gone);
      // either way the banner must go.
      void page
        .getByRole('button', { name: 'Retry now' })
        .click({ timeout: TIMEOUT })
        .catch(() => undefined);
      await banner.waitFor({ state: 'detached', timeout: TIMEOUT });
      await page.getByTestId('live-mode').getByText('Live').waitFor({ timeout: TIMEOUT });
      assert.equal(await page.getByTestId('workspace-id').innerText(), ws.workspace_id);
    } finally {
      await page.close();
    }
  });
});
