/**
 * `npm run screenshots`: starts Acacia on a fresh store with the manual clock, fills it with
 * a small organisation, and saves PNGs of every console page (filled and empty), and of its
 * dialogs (opened, and refusing a field), under docs/screenshots/ or the folder given
 * (`npm run screenshots -- /tmp/shots`), so two builds of the console can be compared.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { DESKTOP, PHONE, chromiumMissing, launchBrowser, settled } from './helpers/browser.js';
import { ensureConsoleBuilt } from './helpers/console-build.js';
import { publicProvider, startTestServer } from './helpers/server.js';

const out = process.argv[2]
  ? path.resolve(process.argv[2])
  : fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

/** A fixed start, so every run shows the same dates. */
const START = '2030-01-14T09:00:00Z';

async function seed(client: AcaciaClient) {
  const advance = (seconds: number) => client.moveClock({ advance_seconds: seconds }).then(resultOf);
  resultOf(await client.moveClock({ now: START }));
  const east = await publicProvider(client, 'aws', 'us-east-1');
  const west = await publicProvider(client, 'aws', 'eu-west-1');
  const prod = resultOf(await client.workgroups.create({ cloud_provider_id: east, name: 'analytics-prod' }));
  const fraud = resultOf(await client.workgroups.create({ cloud_provider_id: west, name: 'fraud-detection' }));
  const sandbox = resultOf(
    await client.workgroups.create({ cloud_provider_id: east, name: 'sandbox', enable_encryption: true }),
  );
  const studio = resultOf(await client.addons.catalog()).find((a) => a.unique_name === 'graphstudio');
  if (studio) resultOf(await client.addons.install(studio.addons_id, { enable: 'true' }));

  const main = resultOf(
    await client.workspaces.create(prod.workgroup_id, {
      name: 'graph-main',
      workspace_type_name: 'TG-1',
      enable_ha: true,
      auto_stop_minutes: 120,
      maintenance_window_time_zone: 'Europe/Berlin',
      x_test_env: 'topology=3GiB',
    }),
  );
  const etl = resultOf(
    await client.workspaces.create(prod.workgroup_id, { name: 'nightly-etl', workspace_type_name: 'TG-0' }),
  );
  resultOf(await client.workspaces.create(fraud.workgroup_id, { name: 'scoring', x_test_env: 'fail:create' }));
  await advance(600);
  resultOf(
    await client.workspaces.create(prod.workgroup_id, {
      name: 'graph-reader',
      is_rw: false,
      tg_database_id: main.database_id!,
    }),
  );
  resultOf(await client.workspaces.pause(prod.workgroup_id, etl.workspace_id!));
  resultOf(await client.backups.create(prod.workgroup_id, main.workspace_id!, { tag: 'before-migration' }));
  await advance(600);
  resultOf(await client.backups.create(prod.workgroup_id, main.workspace_id!, { tag: 'release-2026.11' }));
  resultOf(
    await client.backups.setSchedule(prod.workgroup_id, main.workspace_id!, {
      schedule: '0 3 * * *',
      max_backup_files: 5,
    }),
  );
  resultOf(
    await client.schedules.create(prod.workgroup_id, main.workspace_id!, {
      workspace_id: main.workspace_id!,
      repeat: 'weekdays',
      time: '19:00',
      timezone: 'Europe/Berlin',
      action: 'resize',
      workspace_type_name: 'TG-0',
    }),
  );
  resultOf(
    await client.dbUsers.create(prod.workgroup_id, main.workspace_id!, {
      username: 'app_reader',
      password: 'Correct-Horse-42',
    }),
  );
  resultOf(await client.allowList.create(prod.workgroup_id, { cidr: '203.0.113.0/24', note: 'Office network' }));
  resultOf(await client.allowList.create(prod.workgroup_id, { cidr: '198.51.100.7', note: 'CI runner' }));
  resultOf(await client.allowList.enable(prod.workgroup_id));
  await client.workspaces.create(fraud.workgroup_id, { name: 'fraud-graph', workspace_type_name: 'TG-2' });
  resultOf(
    await client.apiKeys.create({ key_name: 'dashboards', role: 'viewer', description: 'Read-only dashboards' }),
  );
  resultOf(
    await client.cloudProviders.create({
      name: 'team-account',
      platform: 'aws',
      region: 'eu-west-1',
      role_arn: 'arn:aws:iam::123456789012:role/acacia',
    }),
  );
  await advance(600);
  return { prod, main, etl, sandbox };
}

async function shoot(page: Page, name: string, fullPage = true) {
  await settled(page);
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage });
  console.error(path.join(out, `${name}.png`));
}

/** Opens the dialog of `button`, shoots it, and closes it again with Escape. */
async function shootDialog(
  page: Page,
  button: string,
  dialog: string,
  name: string,
  fill?: (d: Locator) => Promise<void>,
) {
  await page.getByRole('button', { name: button, exact: true }).first().click();
  const d = page.getByRole('dialog', { name: dialog });
  await d.waitFor();
  if (fill) await fill(d);
  await shoot(page, name, false);
  await page.keyboard.press('Escape');
  await d.waitFor({ state: 'hidden' });
}

/** Submits the dialog with its primary button and waits for the refusal next to a field. */
const refused = (submit: string) => async (d: Locator) => {
  await d.getByRole('button', { name: submit }).click();
  await d.locator('.field-error').first().waitFor();
};

async function main() {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  ensureConsoleBuilt();
  await mkdir(out, { recursive: true });
  const server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_LOG_LEVEL: 'warn' });
  const browser = await launchBrowser();
  try {
    const { prod, main, etl, sandbox } = await seed(server.client);
    const at = (p: string) => `${server.url}/console${p}`;
    const wg = (id: string) => `/workgroups/${id}`;
    const ws = (wgId: string, id: string | undefined) => `${wg(wgId)}/workspaces/${id}`;
    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await browser.newPage(viewport);
      await page.goto(`${server.url}/console`);
      await page.getByLabel('API key').waitFor();
      await shoot(page, `sign-in-${label}`);
      await page.getByLabel('API key').fill(server.bootstrapKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Workgroups' }).waitFor();
      await page.getByText('fraud-detection').waitFor();
      await shoot(page, `workgroups-${label}`);
      await page.goto(at(ws(prod.workgroup_id, main.workspace_id)));
      await page.getByRole('heading', { name: 'Database users' }).waitFor();
      await page.getByText('release-2026.11').waitFor();
      await shoot(page, `workspace-${label}`);
      await page.goto(at(ws(prod.workgroup_id, etl.workspace_id)));
      await page.getByRole('heading', { name: 'Database users' }).waitFor();
      await page.getByText('No database users.').waitFor();
      await shoot(page, `workspace-empty-${label}`);
      await page.goto(at(`${wg(prod.workgroup_id)}/allow-list`));
      await page.getByText('Office network').waitFor();
      await shoot(page, `allow-list-${label}`);
      await page.goto(at(`${wg(sandbox.workgroup_id)}/allow-list`));
      await page.getByText('No entries.').waitFor();
      await shoot(page, `allow-list-empty-${label}`);
      await page.goto(at(wg(prod.workgroup_id)));
      await page.getByText('graph-reader').waitFor();
      await shoot(page, `workgroup-${label}`);
      await page.goto(at(wg(sandbox.workgroup_id)));
      await page.getByText('No workspaces in this workgroup yet.').waitFor();
      await shoot(page, `workgroup-empty-${label}`);
      await page.goto(at('/addons'));
      await page.getByText('installed and enabled').waitFor();
      await shoot(page, `addons-${label}`);
      await page.goto(at('/cloud-providers'));
      await page.getByText('team-account').waitFor();
      await shoot(page, `cloud-providers-${label}`);
      await page.goto(at('/api-keys'));
      await page.getByText('Read-only dashboards').waitFor();
      await shoot(page, `api-keys-${label}`);
      await page.close();
    }

    // The dialogs, at desktop width: each opened, and the create dialogs refusing a field.
    const page = await browser.newPage(DESKTOP);
    await page.goto(`${server.url}/console`);
    await page.getByLabel('API key').fill(server.bootstrapKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('fraud-detection').waitFor();
    await shootDialog(page, 'Create workgroup', 'Create workgroup', 'dialog-create-workgroup');
    await shootDialog(page, 'Rename analytics-prod', 'Rename analytics-prod', 'dialog-rename-workgroup');
    await shootDialog(page, 'Delete sandbox', 'Delete sandbox?', 'dialog-delete-workgroup');
    await page.goto(at(wg(prod.workgroup_id)));
    await page.getByText('graph-reader').waitFor();
    await shootDialog(page, 'Create workspace', 'Create workspace', 'dialog-create-workspace-refused', async (d) => {
      await d.getByLabel('Auto-stop after idle minutes').fill('-5');
      await refused('Create workspace')(d);
    });
    await page.goto(at(ws(prod.workgroup_id, main.workspace_id)));
    await page.getByText('release-2026.11').waitFor();
    await shootDialog(page, 'Settings', 'Settings of graph-main', 'dialog-workspace-settings');
    await shootDialog(page, 'Take backup', 'Take a backup of graph-main', 'dialog-take-backup');
    await shootDialog(
      page,
      'Edit schedule',
      'Backup schedule of graph-main',
      'dialog-backup-schedule-refused',
      async (d) => {
        await d.getByLabel('When (cron, UTC)').fill('every night');
        await refused('Save schedule')(d);
      },
    );
    await shootDialog(
      page,
      'Add schedule',
      'Schedule an action on graph-main',
      'dialog-add-schedule-refused',
      async (d) => {
        await d.getByLabel('Time zone').fill('Mars/Olympus');
        await refused('Add schedule')(d);
      },
    );
    await shootDialog(page, 'Add user', 'Add a database user to graph-main', 'dialog-add-user-refused', async (d) => {
      await d.getByLabel('User name').fill('analyst');
      await d.getByLabel('Password').fill('short');
      await refused('Add user')(d);
    });
    await shootDialog(
      page,
      'Change the password of app_reader',
      'New password for app_reader',
      'dialog-change-password',
    );
    await page.goto(at(`${wg(prod.workgroup_id)}/allow-list`));
    await page.getByText('Office network').waitFor();
    await shootDialog(page, 'Edit 198.51.100.7/32', 'Edit 198.51.100.7/32', 'dialog-edit-allow-list-entry');
    await page.goto(at('/cloud-providers'));
    await page.getByText('team-account').waitFor();
    await shootDialog(
      page,
      'Register your cloud',
      'Register a cloud account (BYOC)',
      'dialog-register-cloud-refused',
      async (d) => {
        await d.getByLabel('Role ARN').fill('not-an-arn');
        await refused('Register provider')(d);
      },
    );
    await page.goto(at('/api-keys'));
    await page.getByText('Read-only dashboards').waitFor();
    await shootDialog(page, 'Create key', 'Create an API key', 'dialog-create-key-refused', async (d) => {
      await d.getByLabel('Role').selectOption('workgroup-admin');
      await refused('Create key')(d);
    });
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
