/**
 * `npm run screenshots`: starts Acacia on a fresh store with the manual clock, fills it with
 * a small organisation, and saves PNGs of every console page (filled and empty), and of its
 * dialogs (opened, and refusing a field), under docs/screenshots/ or the folder given
 * (`npm run screenshots -- /tmp/shots`), so two builds of the console can be compared.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { DESKTOP, PHONE, chromiumMissing, launchBrowser, settled } from './helpers/browser.js';
import { ensureConsoleBuilt } from './helpers/console-build.js';
import { publicProvider, startTestServer } from './helpers/server.js';
import { prefixTarget, TigerGraphReplay, type Auth } from './helpers/tigergraph-client.js';

const out = process.argv[2]
  ? path.resolve(process.argv[2])
  : fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

/** A fixed start, so every run shows the same dates. */
const START = '2058-01-14T09:00:00Z';

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
  resultOf(await client.org.update({ orgDisplayName: 'Graph Analytics Inc.' }));
  resultOf(
    await client.users.invite({
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Hopper',
      roles: [`workgroup-admin:${prod.workgroup_id}`],
    }),
  );
  resultOf(await client.users.invite({ email: 'books@example.com', roles: ['billing-viewer'] }));
  await advance(600);
  return { prod, main, etl, sandbox };
}

async function shoot(page: Page, name: string, fullPage = true) {
  await settled(page);
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage });
  console.error(path.join(out, `${name}.png`));
}

/** A dialog to shoot: the button opening it, its title, and what to do in it first. */
interface DialogShot {
  /** The button's accessible name (a pattern where it holds a time, as a backup's Restore does). */
  button: string | RegExp;
  title: string;
  name: string;
  /** Fields to fill (by label) before submitting with `submit`, to show the refusal next to a field. */
  refuse?: { fields: Record<string, string>; submit: string };
  /** Selects to set (by label) before the refusal. */
  select?: Record<string, string>;
}

/** A page to shoot, once the text `shows` is there, with its dialogs (shot at desktop width). */
interface PageShot {
  path: string;
  shows: string;
  name: string;
  dialogs?: DialogShot[];
}

/** Opens the dialog, fills and submits it where asked, shoots it, and closes it with Escape. */
async function shootDialog(page: Page, shot: DialogShot) {
  await page.getByRole('button', { name: shot.button, exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: shot.title });
  await dialog.waitFor();
  for (const [label, value] of Object.entries(shot.select ?? {})) await dialog.getByLabel(label).selectOption(value);
  if (shot.refuse) {
    for (const [label, value] of Object.entries(shot.refuse.fields)) await dialog.getByLabel(label).fill(value);
    await dialog.getByRole('button', { name: shot.refuse.submit }).click();
    await dialog.locator('.field-error').first().waitFor();
  }
  await shoot(page, shot.name, false);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

function pages({ prod, main, etl, sandbox }: Awaited<ReturnType<typeof seed>>): PageShot[] {
  const wg = (id: string) => `/workgroups/${id}`;
  const ws = (wgId: string, id: string | undefined) => `${wg(wgId)}/workspaces/${id}`;
  return [
    {
      path: '/workgroups',
      shows: 'fraud-detection',
      name: 'workgroups',
      dialogs: [
        { button: 'Create workgroup', title: 'Create workgroup', name: 'dialog-create-workgroup' },
        { button: 'Rename analytics-prod', title: 'Rename analytics-prod', name: 'dialog-rename-workgroup' },
        { button: 'Delete sandbox', title: 'Delete sandbox?', name: 'dialog-delete-workgroup' },
      ],
    },
    {
      path: ws(prod.workgroup_id, main.workspace_id),
      shows: 'release-2026.11',
      name: 'workspace',
      dialogs: [
        { button: 'Settings', title: 'Settings of graph-main', name: 'dialog-workspace-settings' },
        { button: 'Take backup', title: 'Take a backup of graph-main', name: 'dialog-take-backup' },
        { button: /^Restore backup of /, title: 'Restore this backup?', name: 'dialog-restore-backup' },
        {
          button: 'Edit schedule',
          title: 'Backup schedule of graph-main',
          name: 'dialog-backup-schedule-refused',
          refuse: { fields: { 'When (cron, UTC)': 'every night' }, submit: 'Save schedule' },
        },
        {
          button: 'Add schedule',
          title: 'Schedule an action on graph-main',
          name: 'dialog-add-schedule-refused',
          refuse: { fields: { 'Time zone': 'Mars/Olympus' }, submit: 'Add schedule' },
        },
        {
          button: 'Add user',
          title: 'Add a database user to graph-main',
          name: 'dialog-add-user-refused',
          refuse: { fields: { 'User name': 'analyst', Password: 'short' }, submit: 'Add user' },
        },
        {
          button: 'Change the password of app_reader',
          title: 'New password for app_reader',
          name: 'dialog-change-password',
        },
      ],
    },
    { path: ws(prod.workgroup_id, etl.workspace_id), shows: 'No database users.', name: 'workspace-empty' },
    {
      path: `${ws(prod.workgroup_id, main.workspace_id)}/graph`,
      shows: 'holds no graph data',
      name: 'workspace-graph-simulated',
    },
    {
      path: `${wg(prod.workgroup_id)}/allow-list`,
      shows: 'Office network',
      name: 'allow-list',
      dialogs: [
        { button: 'Edit 198.51.100.7/32', title: 'Edit 198.51.100.7/32', name: 'dialog-edit-allow-list-entry' },
      ],
    },
    { path: `${wg(sandbox.workgroup_id)}/allow-list`, shows: 'No entries.', name: 'allow-list-empty' },
    {
      path: wg(prod.workgroup_id),
      shows: 'graph-reader',
      name: 'workgroup',
      dialogs: [
        {
          button: 'Create workspace',
          title: 'Create workspace',
          name: 'dialog-create-workspace-refused',
          refuse: { fields: { 'Auto-stop after idle minutes': '-5' }, submit: 'Create workspace' },
        },
      ],
    },
    { path: wg(sandbox.workgroup_id), shows: 'No workspaces in this workgroup yet.', name: 'workgroup-empty' },
    { path: '/addons', shows: 'installed and enabled', name: 'addons' },
    {
      path: '/cloud-providers',
      shows: 'team-account',
      name: 'cloud-providers',
      dialogs: [
        {
          button: 'Register your cloud',
          title: 'Register a cloud account (BYOC)',
          name: 'dialog-register-cloud-refused',
          refuse: { fields: { 'Role ARN': 'not-an-arn' }, submit: 'Register provider' },
        },
      ],
    },
    { path: '/organisation', shows: 'grace@example.com', name: 'organisation' },
    { path: '/billing', shows: 'Prices in aws us-east-1', name: 'billing' },
    {
      path: '/api-keys',
      shows: 'Read-only dashboards',
      name: 'api-keys',
      dialogs: [
        {
          button: 'Create key',
          title: 'Create an API key',
          name: 'dialog-create-key-refused',
          select: { Role: 'workgroup-admin' },
          refuse: { fields: {}, submit: 'Create key' },
        },
      ],
    },
  ];
}

/** A small payments graph: several vertex types, directed and undirected edges, a multi-pair edge, a loop. */
const financeSchema = [
  'CREATE VERTEX Person (PRIMARY_ID id STRING, name STRING) WITH PRIMARY_ID_AS_ATTRIBUTE="true"',
  'CREATE VERTEX Account (PRIMARY_ID id STRING, balance DOUBLE)',
  'CREATE VERTEX Device (PRIMARY_ID id STRING)',
  'CREATE VERTEX City (PRIMARY_ID name STRING)',
  'CREATE UNDIRECTED EDGE Knows (FROM Person, TO Person)',
  'CREATE DIRECTED EDGE Owns (FROM Person, TO Account)',
  'CREATE DIRECTED EDGE Transfer (FROM Account, TO Account, amount DOUBLE)',
  'CREATE DIRECTED EDGE Uses (FROM Person, TO Device | FROM Account, TO Device)',
  'CREATE DIRECTED EDGE LivesIn (FROM Person, TO City)',
  'CREATE GRAPH finance (Person, Account, Device, City, Knows, Owns, Transfer, Uses, LivesIn)',
  'CREATE GRAPH social (Person, City, Knows, LivesIn)',
].join('\n');

const financeData = {
  vertices: {
    Person: { ann: { name: { value: 'Ann' } }, bob: { name: { value: 'Bob' } }, cat: { name: { value: 'Cat' } } },
    Account: { a1: { balance: { value: 120.5 } }, a2: { balance: { value: 80 } }, a3: { balance: { value: 310 } } },
    Device: { phone1: {}, laptop7: {} },
    City: { Berlin: {}, Lisbon: {} },
  },
  edges: {
    Person: {
      ann: {
        Knows: { Person: { bob: {}, cat: {} } },
        Owns: { Account: { a1: {} } },
        LivesIn: { City: { Berlin: {} } },
      },
      bob: {
        Owns: { Account: { a2: {}, a3: {} } },
        Uses: { Device: { phone1: {} } },
        LivesIn: { City: { Lisbon: {} } },
      },
    },
    Account: {
      a1: { Transfer: { Account: { a2: { amount: { value: 40 } } } }, Uses: { Device: { laptop7: {} } } },
      a2: { Transfer: { Account: { a3: { amount: { value: 15 } } } } },
    },
  },
};

/**
 * The Graph tab of a workspace with a graph: a server of its own with the local driver (a data-plane process per
 * workspace), the graph loaded through the gateway as a client would.
 */
async function shootGraphTab(browser: Awaited<ReturnType<typeof launchBrowser>>) {
  const server = await startTestServer({
    ACACIA_DRIVER: 'local',
    ACACIA_CLOCK: 'manual',
    ACACIA_SIM_SPEED: '0',
    ACACIA_LOG_LEVEL: 'warn',
  });
  try {
    const c = server.client;
    const east = await publicProvider(c, 'aws', 'us-east-1');
    const wg = resultOf(await c.workgroups.create({ cloud_provider_id: east, name: 'payments' })).workgroup_id;
    const created = resultOf(await c.workspaces.create(wg, { name: 'payments-graph' }));
    const id = created.workspace_id!;
    const ws = await c.waitForWorkspace(wg, id, (w) => w.status === 'Active', { attempts: 600, intervalMs: 50 });
    if (ws?.status !== 'Active') throw new Error(`workspace ${id} never became Active: ${JSON.stringify(ws)}`);
    const user = { username: 'loader', password: 'Graph-Secret-42' };
    resultOf(await c.dbUsers.create(wg, id, user));
    const auth: Auth = { auth: user };
    const tg = new TigerGraphReplay(prefixTarget(server.running.gatewayUrl, id));
    const defined = await tg.gsql4(auth, financeSchema);
    if (defined.status !== 200 || /error|fail/i.test(defined.text)) throw new Error(`schema: ${defined.text}`);
    const loaded = await tg.request('POST', '/restpp/graph/finance', auth, JSON.stringify(financeData));
    if (loaded.status !== 200) throw new Error(`data: ${loaded.text}`);

    const graphPath = `/workgroups/${wg}/workspaces/${id}/graph`;
    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await browser.newPage(viewport);
      await page.goto(`${server.url}/console`);
      await page.getByLabel('API key').fill(server.bootstrapKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Workgroups' }).waitFor();
      await page.goto(`${server.url}/console${graphPath}`);
      await page.getByRole('img', { name: 'Schema of graph finance' }).waitFor();
      await shoot(page, `workspace-graph-${label}`);
      if (label === 'desktop') {
        const run = async (text: string) => {
          await page.getByTestId('gsql-editor').fill(text);
          await page.getByRole('button', { name: 'Run GSQL' }).click();
          await page
            .getByTestId('gsql-output')
            .getByText(text === 'ls' ? 'Vertex Types' : 'Syntax Error')
            .waitFor();
          await page.getByTestId('gsql-output').scrollIntoViewIfNeeded();
        };
        await run('ls');
        await shoot(page, 'workspace-graph-gsql', false);
        await run('CREATE VERTEX Broken (PRIMARY_ID id STRING,, x INT)');
        await shoot(page, 'workspace-graph-gsql-error', false);
      }
      await page.close();
    }
  } finally {
    await server.close();
  }
}

async function main() {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  ensureConsoleBuilt();
  await mkdir(out, { recursive: true });
  const server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_LOG_LEVEL: 'warn' });
  const browser = await launchBrowser();
  try {
    const shots = pages(await seed(server.client));
    await server.running.services.billing.grant('default', 500, 'starter credit');
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
      for (const shot of shots) {
        await page.goto(`${server.url}/console${shot.path}`);
        await page.getByText(shot.shows).first().waitFor();
        await shoot(page, `${shot.name}-${label}`);
        if (label === 'desktop') for (const dialog of shot.dialogs ?? []) await shootDialog(page, dialog);
      }
      await page.close();
    }
    await shootGraphTab(browser);
    // Last, as it stops the server: a workspace's page kept under the offline banner.
    const page = await browser.newPage(DESKTOP);
    await page.goto(`${server.url}/console`);
    await page.getByLabel('API key').fill(server.bootstrapKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workgroups' }).waitFor();
    const workspace = shots.find((s) => s.name === 'workspace')!;
    await page.goto(`${server.url}/console${workspace.path}`);
    await page.getByText(workspace.shows).first().waitFor();
    await server.running.close();
    await page.getByTestId('offline-banner').waitFor();
    await shoot(page, 'workspace-offline-desktop', false);
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
