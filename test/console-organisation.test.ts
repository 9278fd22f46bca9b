import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Page } from 'playwright-core';
import { resultOf } from '../src/client/index.js';
import { chromiumMissing, launchBrowser, settled, type Browser } from './helpers/browser.js';
import { ensureConsoleBuilt } from './helpers/console-build.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const TIMEOUT = 15_000;
const { it, before, after } = suiteUnless(chromiumMissing());

describe(`console: the organisation page (${storeName})`, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  const signIn = async (p: Page, key: string) => {
    await p.goto(`${server.url}/console`);
    await p.getByLabel('API key').fill(key);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'Workgroups', level: 1 }).waitFor({ timeout: TIMEOUT });
  };

  before(async () => {
    ensureConsoleBuilt();
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_LOG_LEVEL: 'warn' });
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows an org admin the organisation, its quota usage and its users, and edits a user's roles", async () => {
    const wg = await newWorkgroup(server.client);
    const ws = await activeWorkspace(server.client, wg, { name: 'org-page-ws' });
    const invited = resultOf(await server.client.users.invite({ email: 'grace@example.com' }));
    await signIn(page, server.bootstrapKey);
    await page.getByRole('link', { name: 'Organisation' }).click();
    await page.getByRole('heading', { name: 'default', level: 1 }).waitFor({ timeout: TIMEOUT });
    const users = page.getByTestId('users');
    await users.getByText('grace@example.com').waitFor({ timeout: TIMEOUT });
    assert.match(await users.innerText(), /owner[\s\S]*Org Admin/);
    assert.match(await page.getByTestId('quota-read-write-workspaces').innerText(), /1 of \d+/);

    await page.getByRole('button', { name: 'Edit the roles of grace@example.com' }).click();
    await page.getByRole('textbox', { name: 'Roles' }).fill(`workspace-admin:${ws.workspace_id}`);
    await page.getByRole('button', { name: 'Save roles' }).click();
    await users.getByText(`Workspace Admin (/workspaces/${ws.workspace_id})`).waitFor({ timeout: TIMEOUT });
    const saved = resultOf(await server.client.users.list()).find((u) => u.id === invited.user.id);
    assert.deepEqual(
      saved?.roles.map((r) => r.id),
      [`workspace-admin:${ws.workspace_id}`],
    );

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Display name').fill('Default Labs');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Default Labs', level: 1 }).waitFor({ timeout: TIMEOUT });
    await settled(page);
    if (process.env.ACACIA_SCREENSHOT_DIR)
      await page.screenshot({ path: `${process.env.ACACIA_SCREENSHOT_DIR}/organisation.png`, fullPage: true });
  });

  it('shows a member the organisation and quota, without users or edit buttons', async () => {
    const invitation = resultOf(await server.client.users.invite({ email: 'member@example.com' }));
    const key = resultOf(await server.client.withKey(undefined).users.accept({ token: invitation.invite_token }));
    const tab = await browser.newPage();
    await signIn(tab, key.plaintext_key!);
    await tab.goto(`${server.url}/console/organisation`);
    await tab.getByTestId('quota-memory').waitFor({ timeout: TIMEOUT });
    await settled(tab);
    assert.equal(await tab.getByTestId('users').count(), 0);
    assert.equal(await tab.getByRole('button', { name: 'Edit', exact: true }).count(), 0);
    await tab.close();
  });
});
