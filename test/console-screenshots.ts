/**
 * `npm run screenshots`: starts Acacia on a fresh store with the manual clock, fills it with
 * a small organisation, and saves PNGs of the console's main pages under docs/screenshots/.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { DESKTOP, PHONE, chromiumMissing, launchBrowser, settled } from './helpers/browser.js';
import { ensureConsoleBuilt } from './helpers/console-build.js';
import { publicProvider, startTestServer } from './helpers/server.js';

const out = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

async function seed(client: AcaciaClient) {
  const advance = (seconds: number) => client.moveClock({ advance_seconds: seconds }).then(resultOf);
  const east = await publicProvider(client, 'aws', 'us-east-1');
  const west = await publicProvider(client, 'aws', 'eu-west-1');
  const prod = resultOf(await client.workgroups.create({ cloud_provider_id: east, name: 'analytics-prod' }));
  const fraud = resultOf(await client.workgroups.create({ cloud_provider_id: west, name: 'fraud-detection' }));
  resultOf(await client.workgroups.create({ cloud_provider_id: east, name: 'sandbox', enable_encryption: true }));
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
  const scoring = resultOf(
    await client.workspaces.create(fraud.workgroup_id, { name: 'scoring', x_test_env: 'fail:create' }),
  );
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
  return { prod, main, scoring };
}

async function shoot(page: Page, name: string, fullPage = true) {
  await settled(page);
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage });
  console.error(`docs/screenshots/${name}.png`);
}

async function main() {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  ensureConsoleBuilt();
  await mkdir(out, { recursive: true });
  const server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_LOG_LEVEL: 'warn' });
  const browser = await launchBrowser();
  try {
    const { prod, main } = await seed(server.client);
    const wsPath = `/console/workgroups/${prod.workgroup_id}/workspaces/${main.workspace_id}`;
    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await browser.newPage(viewport);
      await page.goto(`${server.url}/console`);
      await page.getByLabel('API key').fill(server.bootstrapKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Workgroups' }).waitFor();
      await page.getByText('fraud-detection').waitFor();
      await shoot(page, `workgroups-${label}`);
      await page.goto(`${server.url}${wsPath}`);
      await page.getByRole('heading', { name: 'Database users' }).waitFor();
      await page.getByText('release-2026.11').waitFor();
      await shoot(page, `workspace-${label}`);
      await page.goto(`${server.url}/console/workgroups/${prod.workgroup_id}/allow-list`);
      await page.getByText('Office network').waitFor();
      await shoot(page, `allow-list-${label}`);
      await page.goto(`${server.url}/console/workgroups/${prod.workgroup_id}`);
      await page.getByText('graph-reader').waitFor();
      await shoot(page, `workgroup-${label}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
