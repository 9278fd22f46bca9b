import assert from 'node:assert/strict';
import { describe } from 'node:test';
import * as nodeTest from 'node:test';
import type { Page } from 'playwright-core';
import { request } from 'undici';
import { chromiumMissing, launchBrowser, type Browser } from './helpers/browser.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';

const TIMEOUT = 15_000;

describe(`the headers of the API reference and the console (${storeName})`, () => {
  let server: TestServer;
  nodeTest.before(async () => {
    server = await startTestServer();
  });
  nodeTest.after(() => server.close());

  nodeTest.it(
    'frame, sniff, refer and run scripts from nowhere else, on every answer under /docs and /console',
    async () => {
      // Built or not, the console's answers carry them: a page, a file, a refusal.
      const paths = [
        '/docs',
        '/docs/',
        '/docs/json',
        '/docs/static/swagger-initializer.js',
        '/docs/static/swagger-ui-bundle.js',
        '/docs/static/index.css',
        '/console',
        '/console/workgroups',
        '/console/assets/no-such-file.js',
      ];
      for (const path of paths) {
        const res = await request(`${server.url}${path}`);
        await res.body.dump();
        assert.ok(res.statusCode === 200 || res.statusCode === 404, `${path}: HTTP ${res.statusCode}`);
        const h = res.headers;
        assert.match(String(h['content-security-policy']), /(^|; )script-src 'self';/, path);
        assert.match(String(h['content-security-policy']), /frame-ancestors 'none'/, path);
        assert.equal(h['x-frame-options'], 'DENY', path);
        assert.equal(h['x-content-type-options'], 'nosniff', path);
        assert.equal(h['referrer-policy'], 'no-referrer', path);
      }
      const initializer = await (await request(`${server.url}/docs/static/swagger-initializer.js`)).body.text();
      assert.match(initializer, /"persistAuthorization":false/);
    },
  );
});

const missing = chromiumMissing();
const { it, before, after } = suiteUnless(missing);

describe(`the API reference in Chromium (${storeName})`, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const violations: string[] = [];

  before(async () => {
    server = await startTestServer({ ACACIA_LOG_LEVEL: 'warn' });
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders every operation under its CSP, calls the API, and keeps no API key in the browser', async () => {
    await page.goto(`${server.url}/docs`);
    const operations = page.locator('.opblock');
    await operations.first().waitFor({ timeout: TIMEOUT });
    assert.ok((await operations.count()) >= 60, `${await operations.count()} operations shown`);

    await page.locator('button.authorize').first().click();
    await page.locator('.auth-container input').first().fill(server.bootstrapKey);
    await page.locator('.auth-container button.authorize').first().click();
    await page.locator('.auth-container button.btn-done').first().click();

    // Try it out: the document's server is this origin, and the key goes along.
    const list = page.locator('#operations-Workgroups-listWorkgroups');
    await list.locator('.opblock-summary').click();
    await list.locator('.try-out__btn').click();
    await list.locator('.execute').click();
    const status = list.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: TIMEOUT });
    assert.equal((await status.innerText()).trim(), '200');

    assert.equal(await page.evaluate('localStorage.length'), 0, 'the key is kept nowhere beyond the page');
    assert.deepEqual(violations, []);
  });
});
