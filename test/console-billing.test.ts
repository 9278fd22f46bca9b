import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, launchBrowser, type Browser } from './helpers/browser.js';
import { ensureConsoleBuilt } from './helpers/console-build.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';

const TIMEOUT = 15_000;
const { it, before, after } = suiteUnless(chromiumMissing());

describe(`console billing page in Chromium (${storeName})`, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureConsoleBuilt();
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_LOG_LEVEL: 'warn' });
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the credit, the standing and the prices', async () => {
    await server.running.services.billing.grant('default', 50);
    await page.goto(`${server.url}/console`);
    await page.getByLabel('API key').fill(server.bootstrapKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workgroups', level: 1 }).waitFor({ timeout: TIMEOUT });
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor({ timeout: TIMEOUT });
    const credit = page.getByRole('region', { name: 'Credit' });
    await credit.getByText('$50.00').first().waitFor({ timeout: TIMEOUT });
    assert.match(await credit.innerText(), /Balance\s+\$50\.00/);
    assert.match(await credit.innerText(), /In good standing/);
    const prices = page.getByRole('region', { name: 'Prices in aws us-east-1' });
    const tg00 = prices.getByRole('row', { name: /^TG-00 / });
    assert.match(await tg00.innerText(), /\$1\.00\s+\$1\.10/);
    if (process.env.ACACIA_SCREENSHOT_DIR)
      await page.screenshot({ path: `${process.env.ACACIA_SCREENSHOT_DIR}/billing.png`, fullPage: true });
  });
});
