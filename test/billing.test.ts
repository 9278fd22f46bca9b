import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { runCli, storeEnv } from './helpers/cli.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import { freshStore, newKeyText, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';
import { activeWorkspace, newWorkgroup, waitForDeletion, waitForStatus } from './helpers/workspaces.js';

const HOUR_S = 3600;
const HOUR_MS = HOUR_S * 1000;

async function clockNow(c: AcaciaClient): Promise<number> {
  return Date.parse(assertOk(await c.moveClock({ advance_seconds: 0 })).now);
}

/** Moves the manual clock to the next whole hour. */
async function toNextHour(c: AcaciaClient): Promise<void> {
  const now = await clockNow(c);
  const next = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
  assertOk(await c.moveClock({ advance_seconds: (next - now) / 1000 }));
}

describe(`billing (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
    c = server.client;
  });
  after(() => server.close());

  const grant = (org: string, amount: number) => server.running.services.billing.grant(org, amount);

  it('serves the price sheet of the catalog to any role', async () => {
    const viewer = await server.orgClient('pricing-viewer', { role: 'viewer' });
    const sheet = assertOk(await viewer.billing.pricing());
    const price = (region: string, size: string, ha: boolean) =>
      sheet.workspace_pricing.find(
        (p) => p.platform === 'aws' && p.region === region && p.workspace_type === size && p.ha === String(ha),
      )?.price_per_hour;
    assert.equal(price('us-east-1', 'TG-00', false), 1);
    assert.equal(price('us-east-1', 'TG-00', true), 2.8);
    assert.equal(price('us-east-1', 'TG-16', true), 124.8);
    assert.equal(price('eu-central-1', 'TG-1', false), 5);
    assert.equal(price('sa-east-1', 'TG-2', false), 11);
    const insights = sheet.addon_pricing.find(
      (a) => a.type === 'insights' && a.region === 'us-east-1' && a.workspace_type === 'TG-4',
    );
    assert.equal(insights?.price_per_hour, 1.6);
    const storage = (region: string) =>
      sheet.data_storage_pricing.find((s) => s.platform === 'aws' && s.region === region)?.price_per_month;
    assert.equal(storage('us-east-1'), 0.025);
    assert.equal(storage('sa-east-1'), 0.044);
  });

  it('shows credit and standing to org admins and billing roles only, payments to the admins', async () => {
    // A viewer key of an org admin reads; a workgroup-scoped key does not.
    const viewer = await server.orgClient('billing-roles', { role: 'viewer' });
    assertOk(await viewer.billing.credit());
    const wg = await newWorkgroup(await server.orgClient('billing-roles'));
    const wgAdmin = await server.orgClient('billing-roles', { role: 'workgroup-admin', workgroupIds: [wg] });
    assertError(await wgAdmin.billing.credit(), 403, 'Forbidden', 'x-api-key');
    // A billing viewer reads but does not pay; a workspace member does neither.
    const services = server.running.services;
    const org = (await services.organisations.find('billing-roles'))!;
    const asUser = async (email: string, roles: string[]) =>
      viewer.withKey((await services.users.create(org.id, { email, roles })).key.plaintext_key!);
    const billingViewer = await asUser('books@example.com', ['billing-viewer']);
    assert.equal(assertOk(await billingViewer.billing.validation()), false);
    assertOk(await billingViewer.billing.account());
    assertError(await billingViewer.billing.cards(), 403, 'Forbidden', 'x-api-key');
    const billingAdmin = await asUser('payer@example.com', ['billing-admin']);
    assertError(await billingAdmin.billing.cards(), 501, 'API-Disabled', 'ACACIA_PAYMENT_PROCESSOR_URL');
    const member = await asUser('dev@example.com', []);
    for (const res of [await member.billing.credit(), await member.billing.status(), await member.billing.account()])
      assertError(res, 403, 'Forbidden', 'x-api-key');
    // Prices are public to every key of the organisation.
    assertOk(await member.billing.pricing());
  });

  it('answers API-Disabled naming the setting on the payment and assistant seams; bad input is a 400', async () => {
    const setting = 'ACACIA_PAYMENT_PROCESSOR_URL';
    assertError(await c.billing.cards(), 501, 'API-Disabled', setting);
    assertError(await c.billing.deleteCard('card_1'), 501, 'API-Disabled', setting);
    assertError(await c.billing.setDefaultCard('card_1'), 501, 'API-Disabled', setting);
    assertError(await c.billing.session(), 501, 'API-Disabled', setting);
    const invoice = { year: 2026, month: 11, day: 1, productPlanId: 'plan' };
    assertError(await c.billing.payInvoice(invoice), 501, 'API-Disabled', setting);
    assertError(await c.billing.payInvoice({ ...invoice, month: 13 }), 400, 'Bad-Request', 'month');
    const viewer = await server.orgClient('seam-viewer', { role: 'viewer' });
    assertError(await viewer.billing.cards(), 403, 'Forbidden', 'x-api-key');

    const wg = await newWorkgroup(c);
    const ws = await activeWorkspace(c, wg, { name: 'chatty' });
    const chat = { message: 'how do I load data?' };
    const missing = '3c9e7f21-5a4b-4d8c-9e1f-7b2a6c3d4e5f';
    assertError(await c.workspaces.onboardingChat(wg, missing, chat), 404, 'Not-Found', 'workspaceID');
    assertError(await c.workspaces.onboardingChat(wg, ws.workspace_id, chat), 400, 'Bad-Request', 'ThreadID');
    assertError(
      await c.workspaces.onboardingChat(wg, ws.workspace_id, { ...chat, debug: 'yes' } as never),
      400,
      'Bad-Request',
      'debug',
    );
    assertError(
      await c.workspaces.onboardingChat(wg, ws.workspace_id, chat, { headers: { ThreadID: 't-1' } }),
      501,
      'API-Disabled',
      'ACACIA_ASSISTANT_URL',
    );
    assertOk(await c.workspaces.delete(wg, ws.workspace_id));
    await waitForDeletion(c, wg, ws.workspace_id);
  });

  it('charges an hour of an Active workspace exactly the catalog price, once, across a restart', async () => {
    const org = await server.orgClient('metered', { tier: 'paid' });
    await grant('metered', 100);
    assert.equal(assertOk(await org.billing.validation()), true);
    const wg = await newWorkgroup(org);
    const ws = await activeWorkspace(org, wg, { workspace_type_name: 'TG-00' });

    await toNextHour(c);
    const before = assertOk(await org.billing.credit());
    assertOk(await c.moveClock({ advance_seconds: HOUR_S }));
    const afterHour = assertOk(await org.billing.credit());
    assert.equal(Math.round((before - afterHour) * 1e6), 1_000_000, 'an hour of TG-00 in us-east-1 is 1.00');

    await server.restart();
    assertOk(await c.moveClock({ advance_seconds: HOUR_S }));
    const afterRestart = assertOk(await org.billing.credit());
    assert.equal(Math.round((afterHour - afterRestart) * 1e6), 1_000_000, 'the next hour once, none twice');
    const account = assertOk(await org.billing.account());
    assert.equal(account.held_to_credit, true);
    assert.equal(account.status, 0);
    assert.equal(Math.round((account.granted - account.charged) * 1e6), Math.round(afterRestart * 1e6));

    // A paused workspace costs no compute (the sim stores no bytes: no storage either).
    assertOk(await org.workspaces.pause(wg, ws.workspace_id));
    await waitForStatus(org, wg, ws.workspace_id, 'Stopped');
    await toNextHour(c);
    const paused = assertOk(await org.billing.credit());
    assertOk(await c.moveClock({ advance_seconds: HOUR_S }));
    assert.equal(assertOk(await org.billing.credit()), paused);
  });

  it('runs the grace periods when credit runs out: delinquent, paused, deleted; credit added ends it', async () => {
    // Two organisations of the paid tier (1 day to the pause, 7 more to the deletion).
    const late = await server.orgClient('late', { tier: 'paid' });
    const rescued = await server.orgClient('rescued', { tier: 'paid' });
    const lateWg = await newWorkgroup(late);
    const rescuedWg = await newWorkgroup(rescued);
    await grant('late', 2);
    await grant('rescued', 2);
    const lateWs = await activeWorkspace(late, lateWg, { workspace_type_name: 'TG-00' });
    const rescuedWs = await activeWorkspace(rescued, rescuedWg, { workspace_type_name: 'TG-00' });

    // $1 an hour: out of credit within three hours.
    for (let i = 0; i < 3; i++) assertOk(await c.moveClock({ advance_seconds: HOUR_S }));
    for (const org of [late, rescued]) {
      const account = assertOk(await org.billing.account());
      assert.ok(account.balance <= 0, JSON.stringify(account));
      assert.notEqual(account.delinquent_since, null);
      assert.equal(account.status, 1);
      assert.equal(assertOk(await org.billing.validation()), false);
      assert.equal(assertOk(await org.billing.status()), 1);
    }
    const lateAccount = assertOk(await late.billing.account());
    assert.equal(Date.parse(lateAccount.suspend_at!) - Date.parse(lateAccount.delinquent_since!), 24 * HOUR_MS);
    assert.equal(Date.parse(lateAccount.terminate_at!) - Date.parse(lateAccount.suspend_at!), 7 * 24 * HOUR_MS);
    const events = resultOf(await late.events.list({ since: 0, limit: 1000 }));
    assert.equal(events.filter((e) => e.type === 'organisation.delinquent').length, 1);

    // No new workspaces while out of credit.
    const refused = assertError(
      await late.workspaces.create(lateWg, { name: 'another' }),
      403,
      'Forbidden',
      'delinquent_since',
    );
    assert.match(refused.Reason, /out of credit/);
    assert.equal(resultOf(await late.workgroups.get(lateWg)).workspaces?.length ?? 1, 1);

    // The first grace period: still running just before, paused at its end.
    const suspendAt = Date.parse(lateAccount.suspend_at!);
    assertOk(await c.moveClock({ advance_seconds: (suspendAt - (await clockNow(c))) / 1000 - 60 }));
    assert.equal(assertOk(await late.workspaces.get(lateWg, lateWs.workspace_id)).status, 'Active');
    assertOk(await c.moveClock({ advance_seconds: 60 }));
    await waitForStatus(late, lateWg, lateWs.workspace_id, 'Stopped');
    await waitForStatus(rescued, rescuedWg, rescuedWs.workspace_id, 'Stopped');
    assert.equal(assertOk(await late.billing.status()), 2);
    const paused = resultOf(await late.events.list({ since: 0, limit: 1000 })).filter(
      (e) => e.type === 'workspace.status_changed' && e.resource_id === lateWs.workspace_id,
    );
    assert.ok(paused.some((e) => (e.data as { status?: string }).status === 'Stopped'));

    // Credit added ends the delinquency and stops the clock.
    const { balance } = await grant('rescued', 50);
    assert.ok(balance > 0);
    const reinstated = assertOk(await rescued.billing.account());
    assert.equal(reinstated.delinquent_since, null);
    assert.equal(reinstated.status, 0);
    assert.equal(
      resultOf(await rescued.events.list({ since: 0, limit: 1000 })).filter((e) => e.type === 'organisation.reinstated')
        .length,
      1,
    );
    assertOk(await rescued.workspaces.create(rescuedWg, { name: 'after-credit' }));

    // The second: the late organisation's workspace is deleted; the rescued one's stays.
    const terminateAt = Date.parse(lateAccount.terminate_at!);
    assertOk(await c.moveClock({ advance_seconds: (terminateAt - (await clockNow(c))) / 1000 }));
    await waitForDeletion(late, lateWg, lateWs.workspace_id);
    assert.equal(assertOk(await late.billing.status()), 3);
    assert.equal(assertOk(await rescued.workspaces.get(rescuedWg, rescuedWs.workspace_id)).status, 'Stopped');
    const deleted = resultOf(await late.events.list({ since: 0, limit: 1000 })).filter(
      (e) => e.type === 'workspace.deleted' && e.resource_id === lateWs.workspace_id,
    );
    assert.equal(deleted.length, 1);
  });

  it('refuses a grant that is not a positive amount, or for no organisation, changing nothing', async () => {
    const before = assertOk(await c.billing.account());
    await assert.rejects(grant('default', 0), /amount/);
    await assert.rejects(grant('default', -5), /amount/);
    await assert.rejects(grant('default', Number.NaN), /amount/);
    await assert.rejects(grant('no-such-org', 5), /no organisation/);
    assert.deepEqual(assertOk(await c.billing.account()), before);
  });
});

describe(`metering an hour in which credit was granted (${storeName})`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
  });
  after(() => server.close());

  it('charges the hour at its end when the account became held to credit just before', async () => {
    const c = server.client;
    // The meter passes here with no account held to credit: its next look is a minute away.
    await toNextHour(c);
    assertOk(await c.moveClock({ advance_seconds: HOUR_S - 30 }));
    const org = await server.orgClient('granted-late', { tier: 'paid' });
    await server.running.services.billing.grant('granted-late', 100);
    const wg = await newWorkgroup(org);
    await activeWorkspace(org, wg, { workspace_type_name: 'TG-00' });
    const before = assertOk(await org.billing.credit());
    // The hour ends 30 s later, before that look: the clock stops there and the hour is charged.
    assertOk(await c.moveClock({ advance_seconds: 30 }));
    const after = assertOk(await org.billing.credit());
    // The time it ran (its start took part of the 30 s), charged at the hour's end, not with the next hour.
    const charged = Math.round((before - after) * 1e6);
    assert.ok(charged > 0 && charged <= Math.round(1e6 * (30 / HOUR_S)), `${charged} micros for at most 30 s`);
    assertOk(await c.moveClock({ advance_seconds: HOUR_S }));
    const nextHour = Math.round((after - assertOk(await org.billing.credit())) * 1e6);
    assert.equal(nextHour, 1_000_000, 'the next hour is one hour of TG-00, nothing of the one before');
  });
});

describe(`metering across processes (${storeName})`, () => {
  // Several processes share one PostgreSQL (DESIGN §10); SQLite's scale is one process.
  const { it } = suiteUnless(storeName !== 'postgres' && 'needs PostgreSQL');

  it('charges an hour once with two engines, credit added by the admin command', async () => {
    const store = await freshStore();
    const key = newKeyText();
    const servers: ServeProcess[] = [];
    try {
      for (let i = 0; i < 2; i++) servers.push(await serveProcess(store, key, { ACACIA_SIM_SPEED: '0' }));
      const [a, b] = servers as [ServeProcess, ServeProcess];
      const added = await runCli(['admin', 'credit', 'add', '--org', 'default', '--amount', '100'], storeEnv(store));
      assert.equal(added.code, 0, added.stderr);
      assert.equal(JSON.parse(added.stdout).balance, 100);
      const wg = await newWorkgroup(a.client);
      await activeWorkspace(a.client, wg, { workspace_type_name: 'TG-00' });
      await toNextHour(a.client);
      // The hour the workspace started in is over now: each engine ticks at the new time, so its
      // part-hour is charged before the balance is read, whichever process claims it.
      assertOk(await a.client.moveClock({ advance_seconds: 0 }));
      assertOk(await b.client.moveClock({ advance_seconds: 0 }));
      const before = assertOk(await b.client.billing.credit());
      assertOk(await a.client.moveClock({ advance_seconds: HOUR_S }));
      // b sees the clock move at its next tick; give it time to try to charge the hour too.
      await new Promise((r) => setTimeout(r, 1500));
      assertOk(await b.client.moveClock({ advance_seconds: 0 }));
      const after = assertOk(await b.client.billing.credit());
      assert.equal(Math.round((before - after) * 1e6), 1_000_000);
    } finally {
      await Promise.all(servers.map((s) => stopProcess(s.child, 'SIGKILL')));
      await store.dispose();
    }
  });
});
