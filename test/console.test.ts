import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { resultOf } from '../src/client/index.js';
import { PHONE, chromiumMissing, launchBrowser, settled, type Browser } from './helpers/browser.js';
import { ensureConsoleBuilt } from './helpers/console-build.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';

const TIMEOUT = 15_000;
const missing = chromiumMissing();
const { it, before, after } = suiteUnless(missing);

/** Waits until the locator's text includes `text` (the page changes by itself: polling or the stream). */
async function waitForText(locator: Locator, text: string, timeout = TIMEOUT): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const now = (await locator.textContent({ timeout }).catch(() => null)) ?? '';
    if (now.includes(text)) return;
    if (Date.now() > deadline) assert.fail(`expected "${text}", still "${now}"`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The names of every button on the page (the write actions are buttons; links only navigate),
 * but for the Copy buttons beside ids and commands, which copy to the clipboard and change nothing.
 */
async function buttonNames(page: Page): Promise<string[]> {
  const buttons = page.locator('button:visible:not(.copy)');
  const names: string[] = [];
  for (let i = 0; i < (await buttons.count()); i++) {
    const b = buttons.nth(i);
    names.push((await b.getAttribute('aria-label')) ?? ((await b.textContent()) ?? '').trim());
  }
  return names;
}

describe(`web console in Chromium (${storeName})`, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let wgId = '';
  let wsId = '';

  const advance = async (seconds: number) => resultOf(await server.client.moveClock({ advance_seconds: seconds }));
  const signIn = async (p: Page, key: string) => {
    await p.goto(`${server.url}/console`);
    await p.getByLabel('API key').fill(key);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'Workgroups', level: 1 }).waitFor({ timeout: TIMEOUT });
  };

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

  it('refuses a wrong key next to its field, then signs in, keeping the key in this tab only', async () => {
    await page.goto(`${server.url}/`);
    assert.equal(new URL(page.url()).pathname, '/console', 'GET / sends a browser to the console');
    const field = page.getByLabel('API key');
    await field.fill('acacia_sk_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForText(page.locator('.field-error'), 'not valid');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    assert.match(await page.locator(`[id="${describedBy.split(' ')[0]}"]`).innerText(), /not valid/);

    await signIn(page, server.bootstrapKey);
    assert.equal(await page.evaluate("sessionStorage.getItem('acacia.apiKey')"), server.bootstrapKey);
    assert.equal(await page.evaluate('localStorage.length'), 0, 'nothing is kept beyond the tab');
    // This server has the event stream: the console follows it (without it, it would poll every 3 s).
    await waitForText(page.getByTestId('live-mode'), 'Live');
    assert.match(await page.locator('.whoami').innerText(), /org-admin/);
  });

  it('creates a workgroup and a workspace, whose badge turns Active without a reload', async () => {
    await page.getByRole('button', { name: 'Create workgroup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create workgroup' });
    await dialog.getByLabel('Name').fill('console-wg');
    await dialog.getByRole('button', { name: 'Create workgroup' }).click();
    await page.getByRole('heading', { name: 'console-wg', level: 1 }).waitFor({ timeout: TIMEOUT });
    wgId = decodeURIComponent(new URL(page.url()).pathname.split('/')[3]!);
    assert.equal(resultOf(await server.client.workgroups.get(wgId)).name, 'console-wg');

    await page.getByRole('button', { name: 'Create workspace' }).click();
    const create = page.getByRole('dialog', { name: 'Create workspace' });
    await create.getByLabel('Name').fill('ws1');
    await create.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { name: 'ws1', level: 1 }).waitFor({ timeout: TIMEOUT });
    wsId = decodeURIComponent(new URL(page.url()).pathname.split('/')[5]!);
    await waitForText(page.getByTestId('workspace-status'), 'Creating');

    // Back on the workgroup's list, the badge follows the workspace while the page stays.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'console-wg' }).click();
    const badge = page.getByTestId('status-ws1');
    await waitForText(badge, 'Creating');
    await page.evaluate('window.notReloaded = true');
    await advance(120);
    assert.equal(resultOf(await server.client.workspaces.get(wgId, wsId)).status, 'Active');
    await waitForText(badge, 'Active');
    assert.equal(await page.evaluate('window.notReloaded'), true);
    assert.match((await badge.locator('.badge').getAttribute('class')) ?? '', /badge-ok/);
  });

  it('takes a backup, then pauses the workspace after a confirmation', async () => {
    await page.getByRole('link', { name: 'ws1' }).click();
    await page.getByRole('heading', { name: 'Backups' }).waitFor({ timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Take backup' }).click();
    const take = page.getByRole('dialog', { name: 'Take a backup of ws1' });
    await take.getByLabel('Tag').fill('before-pause');
    await take.getByRole('button', { name: 'Take backup' }).click();
    const row = page.getByRole('row').filter({ hasText: 'before-pause' });
    await waitForText(row, 'InProgress');
    await advance(600);
    await waitForText(row, 'Succeeded');
    assert.deepEqual(
      resultOf(await server.client.backups.list(wgId, wsId)).map((b) => [b.tag, b.status]),
      [['before-pause', 'Succeeded']],
    );

    await page.getByRole('button', { name: 'Pause' }).click();
    const confirm = page.getByRole('dialog', { name: 'Pause ws1?' });
    // Nothing happens until confirmed.
    assert.equal(resultOf(await server.client.workspaces.get(wgId, wsId)).status, 'Active');
    await confirm.getByRole('button', { name: 'Pause workspace' }).click();
    await waitForText(page.getByTestId('workspace-status'), 'Pausing');
    await advance(120);
    await waitForText(page.getByTestId('workspace-status'), 'Stopped');
    assert.equal(resultOf(await server.client.workspaces.get(wgId, wsId)).status, 'Stopped');
    // The operations timeline shows both.
    await waitForText(page.getByRole('region', { name: 'Operations' }), 'workspace.pause');
  });

  it('keeps keyboard focus inside a dialog, closes it on Escape and returns focus to its button', async () => {
    const open = page.getByRole('button', { name: 'Take backup' });
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Take a backup of ws1' });
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel('Tag').evaluate((el) => el === el.ownerDocument.activeElement), true);
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
      assert.equal(await dialog.evaluate((d) => d.contains(d.ownerDocument.activeElement)), true, `Tab ${i}`);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await open.evaluate((el) => el === el.ownerDocument.activeElement), true);
  });

  it("adds the caller's address to the allow list, and shows a refusal next to its field", async () => {
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'console-wg' }).click();
    await page.getByRole('link', { name: 'Allow list' }).click();
    await waitForText(page.getByTestId('my-address'), '127.0.0.1');
    await page.getByRole('button', { name: 'Add my address' }).click();
    await waitForText(page.getByTestId('allow-list'), '127.0.0.1/32');
    assert.deepEqual(
      resultOf(await server.client.allowList.list(wgId)).map((e) => e.cidr),
      ['127.0.0.1/32'],
    );

    const cidr = page.getByLabel('Address or range', { exact: true });
    await cidr.fill('10.0.0.1/8');
    await page.getByRole('button', { name: 'Add to allow list' }).click();
    await waitForText(page.locator('.field-error'), '10.0.0.0/8');
    assert.equal(await cidr.getAttribute('aria-invalid'), 'true');
    const errorId = ((await cidr.getAttribute('aria-describedby')) ?? '').split(' ')[0];
    const error = page.locator(`[id="${errorId}"]`);
    assert.match(await error.innerText(), /10\.0\.0\.0\/8/);
    // Next to its own field: inside the field's group, not in a banner.
    assert.equal(
      await error.evaluate((el, input) => el.parentElement === input?.parentElement, await cidr.elementHandle()),
      true,
    );
    assert.equal(await page.locator('.banner-error').count(), 0);
    assert.equal(resultOf(await server.client.allowList.list(wgId)).length, 1, 'the refused entry changed nothing');
  });

  it('is usable at phone width: nothing wider than the screen', async () => {
    const phone = await browser.newPage(PHONE);
    await signIn(phone, server.bootstrapKey);
    for (const path of ['/workgroups', `/workgroups/${wgId}/workspaces/${wsId}`, `/workgroups/${wgId}/allow-list`]) {
      await phone.goto(`${server.url}/console${path}`);
      await phone.locator('main h1').waitFor();
      await settled(phone);
      const width = Number(await phone.evaluate('document.documentElement.scrollWidth'));
      assert.ok(width <= PHONE.width, `${path} is ${width}px wide`);
    }
    await phone.close();
  });

  it('passes the axe accessibility checks (labels, contrast, roles) on the main pages', async () => {
    const axe = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    for (const path of [
      '/workgroups',
      `/workgroups/${wgId}`,
      `/workgroups/${wgId}/workspaces/${wsId}`,
      `/workgroups/${wgId}/allow-list`,
    ]) {
      await page.goto(`${server.url}/console${path}`);
      await page.locator('main h1').waitFor();
      await settled(page);
      await page.evaluate(axe);
      // In the page: axe's findings as `rule: elements`.
      const violations = await page.evaluate(
        'axe.run().then((r) => r.violations.map(' +
          "(v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
      );
      assert.deepEqual(violations, [], path);
    }
  });

  it('shows a viewer key no write buttons, and signing out forgets the key', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    assert.equal(await page.evaluate('sessionStorage.length'), 0);

    const viewer = resultOf(await server.client.apiKeys.create({ key_name: 'console-viewer', role: 'viewer' }));
    await signIn(page, viewer.plaintext_key!);
    assert.match(await page.locator('.whoami').innerText(), /viewer/);
    const pages: Array<[string, string]> = [
      ['/workgroups', 'console-wg'],
      [`/workgroups/${wgId}`, 'ws1'],
      [`/workgroups/${wgId}/workspaces/${wsId}`, 'before-pause'],
      [`/workgroups/${wgId}/allow-list`, '127.0.0.1/32'],
      ['/addons', 'GraphStudio'],
      ['/cloud-providers', 'us-east-1'],
      ['/api-keys', 'This key'],
    ];
    for (const [path, shown] of pages) {
      await page.goto(`${server.url}/console${path}`);
      await page.getByText(shown).first().waitFor({ timeout: TIMEOUT });
      await settled(page);
      assert.deepEqual(await buttonNames(page), ['Sign out'], `${path} offers a viewer only reading`);
    }
  });

  it('shows a workspace-admin the write buttons of its own workspace only', async () => {
    const admin = resultOf(
      await server.client.apiKeys.create({ key_name: 'ws-admin', role: 'workspace-admin', workspace_ids: [wsId] }),
    );
    const tab = await browser.newPage();
    await signIn(tab, admin.plaintext_key!);
    await tab.getByText('console-wg').waitFor();
    assert.deepEqual(await buttonNames(tab), ['Sign out'], 'no workgroup to create, rename or delete');
    await tab.goto(`${server.url}/console/workgroups/${wgId}/workspaces/${wsId}`);
    await tab.getByText('before-pause').waitFor({ timeout: TIMEOUT });
    const names = await buttonNames(tab);
    for (const name of ['Resume', 'Settings', 'Take backup', 'Add schedule', 'Add user'])
      assert.ok(names.includes(name), `${name} in ${names}`);
    assert.ok(!names.includes('Delete'), 'a workspace-admin does not delete its workspace');
    await tab.close();
  });

  it("changes one add-on in a workspace's settings and keeps its other add-ons as they were", async () => {
    const catalog = resultOf(await server.client.addons.catalog());
    const [studio, insights] = ['graphstudio', 'insights'].map(
      (name) => catalog.find((a) => a.unique_name === name)!.addons_id,
    ) as [string, string];
    for (const id of [studio, insights]) resultOf(await server.client.addons.install(id, { enable: 'true' }));
    const ws = resultOf(
      await server.client.workspaces.create(wgId, {
        name: 'ws-addons',
        addons: [
          { addons_id: studio, enable: true, enable_configuration: 'theme=dark' },
          { addons_id: insights, enable: true },
        ],
      }),
    );
    await advance(120);
    const tab = await browser.newPage();
    await signIn(tab, server.bootstrapKey);
    await tab.goto(`${server.url}/console/workgroups/${wgId}/workspaces/${ws.workspace_id}`);
    await tab.getByRole('button', { name: 'Settings' }).click();
    const dialog = tab.getByRole('dialog', { name: 'Settings of ws-addons' });
    await dialog.getByLabel('Insights').uncheck();
    await dialog.getByRole('button', { name: 'Save settings' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT });
    await tab.close();
    const addons = resultOf(await server.client.workspaces.get(wgId, ws.workspace_id!)).addons ?? [];
    assert.deepEqual(
      addons.map((a) => [a.addons_id, a.enable, a.enable_configuration]).sort(),
      [
        [studio, true, 'theme=dark'],
        [insights, false, undefined],
      ].sort(),
      'GraphStudio, untouched in the form, is still enabled with its configuration',
    );
  });
});
