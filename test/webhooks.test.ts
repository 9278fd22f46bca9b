import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as timeout } from 'node:timers/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { API_PREFIX, resultOf, type AcaciaClient } from '../src/client/index.js';
import type { EventRecord, EventType } from '../src/schemas/event.js';
import type { WebhookDeliveryRecord } from '../src/schemas/webhook.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1: records every POST and answers the next status queued for its path (else 200). */
class Receiver {
  readonly received: Received[] = [];
  readonly answers = new Map<string, number[]>();
  /** Paths whose requests are answered only at release(). */
  readonly holding = new Set<string>();
  private held: http.ServerResponse[] = [];

  release(): void {
    this.holding.clear();
    for (const res of this.held.splice(0)) res.end();
  }
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = req.url ?? '/';
      this.received.push({ path: at, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = this.answers.get(at)?.shift() ?? 200;
      if (this.holding.has(at)) this.held.push(res);
      else res.end();
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(p: string): Received[] {
    return this.received.filter((r) => r.path === p);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls (real time) until check holds; deliveries are sent by the engine in the background. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const giveUp = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > giveUp) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Addresses a webhook may not reach unless private targets are allowed, and what each is. */
const notGlobal: Array<[string, string]> = [
  ['6to4 of 169.254.169.254', '2002:a9fe:a9fe::1'],
  ['IPv4-compatible loopback', '::7f00:1'],
  ['local-use NAT64', '64:ff9b:1::7f00:1'],
  ['NAT64 of 169.254.169.254', '64:ff9b::a9fe:a9fe'],
  ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ['site-local', 'fec0::1'],
  ['discard', '100::1'],
  ['TEST-NET-1', '192.0.2.1'],
  ['TEST-NET-2', '198.51.100.7'],
  ['TEST-NET-3', '203.0.113.9'],
  ['IPv6 documentation', '2001:db8::1'],
  ['IPv6 documentation 3fff::/20', '3fff::1'],
  ['IPv6 benchmarking', '2001:2::1'],
  ['ORCHID', '2001:10::1'],
  ['ORCHIDv2', '2001:20::1'],
  ['AMT', '2001:3::1'],
  ['AS112', '2001:4:112::1'],
  ['segment routing', '5f00::1'],
  ['unallocated IPv6', '4000::1'],
  ['IPv4-translated', '::ffff:0:7f00:1'],
  ['IPv4 benchmarking', '198.18.0.1'],
  ['6to4 relay anycast', '192.88.99.1'],
  ['IETF protocol assignments', '192.0.0.8'],
  ['class E', '240.0.0.1'],
  ['broadcast', '255.255.255.255'],
  ['this network', '0.0.0.0'],
  ['multicast', '224.0.0.1'],
  ['IPv6 multicast', 'ff02::1'],
  ['loopback', '127.0.0.1'],
  ['IPv6 loopback', '::1'],
  ['unspecified', '::'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
  ['metadata', '169.254.169.254'],
  ['link-local', 'fe80::1'],
  ['unique local (a cloud metadata service)', 'fd00:ec2::254'],
  ['private 10/8', '10.1.2.3'],
  ['private 172.16/12', '172.16.0.1'],
  ['private 192.168/16', '192.168.1.1'],
  ['shared (CGNAT)', '100.64.0.1'],
];
/** Global unicast addresses, which a webhook may have. */
const global: Array<[string, string]> = [
  ['public IPv4', '93.184.215.14'],
  ['public IPv6', '2606:4700::1111'],
  ['NAT64 of a public IPv4', '64:ff9b::5db8:d70e'],
  ['IPv4-mapped public IPv4', '::ffff:93.184.215.14'],
];
/** An address as a URL's host. */
const literal = (address: string) => (address.includes(':') ? `[${address}]` : address);
/** The fenced `lang` block of docs/events.md's Webhooks section, as a receiver would copy it. */
function docBlock(lang: string): string {
  const docs = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'events.md'), 'utf8');
  const section = docs.split(/^## /m).find((s) => s.startsWith('Webhooks\n'));
  const block = section && new RegExp(`\`\`\`${lang}\n([\\s\\S]*?)\`\`\``).exec(section);
  assert.ok(block, `docs/events.md has a ${lang} block under "## Webhooks"`);
  return block[1]!;
}

/** Whether a delivery is signed as documented: `t=<timestamp>,v1=<HMAC-SHA256 of "<timestamp>.<body>">`. */
function signedAt(secret: string, timestamp: string, body: string, header: unknown): boolean {
  const parts = new Map(
    String(header)
      .split(',')
      .map((p) => p.split('=', 2) as [string, string]),
  );
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return parts.get('t') === timestamp && parts.get('v1') === mac;
}

/** A received delivery's signature checked against its own X-Acacia-Timestamp, and not against another. */
function assertSigned(secret: string, r: Received): void {
  const timestamp = String(r.headers['x-acacia-timestamp']);
  const signature = String(r.headers['x-acacia-signature']);
  assert.match(timestamp, /^\d+$/);
  assert.match(signature, /^t=\d+,v1=[0-9a-f]{64}$/);
  assert.ok(signedAt(secret, timestamp, r.body, signature), 'signed over the timestamp and the exact body');
  const other = String(Number(timestamp) + 1);
  assert.ok(!signedAt(secret, other, r.body, signature.replace(`t=${timestamp}`, `t=${other}`)), 'not another time');
  assert.ok(!signedAt(secret, timestamp, `${r.body} `, signature), 'nor another body');
}
const workspaceTypes: EventType[] = [
  'workspace.created',
  'workspace.updated',
  'workspace.status_changed',
  'workspace.deleted',
];

describe(`webhooks (${storeName})`, () => {
  let server: TestServer;
  const receiver = new Receiver();
  const secrets: string[] = [];
  let orgs = 0;
  const newOrg = () => server.orgClient(`hooks-${++orgs}`);
  const deliveriesOf = async (c: AcaciaClient, id: string) => assertOk(await c.webhooks.deliveries(id));

  before(async () => {
    await receiver.start();
    server = await startTestServer({
      ACACIA_SIM_SPEED: '0',
      ACACIA_CLOCK: 'manual',
      ACACIA_WEBHOOK_ALLOW_PRIVATE: 'on',
      ACACIA_RETRY_BACKOFF: '5',
    });
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  it('a receiver that does not answer holds up no operation: a workspace becomes Active meanwhile', async () => {
    const c = await newOrg();
    receiver.holding.add('/held');
    assertOk(await c.webhooks.create({ url: `${receiver.url}/held`, event_types: ['workgroup.created'] }));
    const wg = await newWorkgroup(c);
    await until(() => receiver.at('/held').length === 1, 'the held delivery');
    const ws = assertOk(await c.workspaces.create(wg, { name: 'beside-a-held-delivery' })).workspace_id!;
    // The held POST would time out after 10 s; the workspace must not wait for it.
    await until(
      async () => assertOk(await c.workspaces.get(wg, ws)).status === 'Active',
      'the workspace Active while the receiver holds its answer',
      5_000,
    );
    receiver.release();
  });

  it("is fair: hanging receivers of one organisation hold a few senders; another's delivery goes out", async () => {
    // Organisation A: 8 webhooks whose receiver answers nothing (until released), 3 events each:
    // a backlog of 24, more than the 16 senders.
    const a = await newOrg();
    const slow = Array.from({ length: 8 }, (_, i) => `/hanging-${i}`);
    for (const p of slow) receiver.holding.add(p);
    const aHooks: string[] = [];
    for (const p of slow)
      aHooks.push(
        assertOk(await a.webhooks.create({ url: `${receiver.url}${p}`, event_types: ['workgroup.created'] }))
          .webhook_id,
      );
    for (let i = 0; i < 3; i++) await newWorkgroup(a);
    const hanging = () => slow.flatMap((p) => receiver.at(p)).length;
    await until(() => hanging() >= 4, "A's first deliveries under way");
    const b = await newOrg();
    const bHook = assertOk(
      await b.webhooks.create({ url: `${receiver.url}/prompt`, event_types: ['workgroup.created'] }),
    );
    await newWorkgroup(b);
    await until(() => receiver.at('/prompt').length === 1, "B's delivery");
    assert.equal(hanging(), 4, 'A has at most 4 deliveries in flight (perOrganisation)');
    for (const p of slow) assert.ok(receiver.at(p).length <= 1, `one delivery at a time to ${p}`);
    // Sent while A's first POSTs still hang: none of them has timed out yet.
    for (const id of aHooks)
      for (const d of await deliveriesOf(a, id)) {
        assert.equal(d.state, 'pending');
        assert.equal(d.last_error, undefined, "B's delivery did not wait for A's timeouts");
      }

    receiver.release();
    for (const id of aHooks)
      await until(async () => {
        const d = await deliveriesOf(a, id);
        return d.length === 3 && d.every((x) => x.state === 'delivered' && x.attempts === 1);
      }, "A's backlog delivered");
    for (const p of slow) {
      const ids = receiver.at(p).map((r) => (JSON.parse(r.body) as EventRecord).event_id);
      assert.deepEqual(
        ids,
        [...ids].sort((x, y) => x - y),
        `${p} got its events in order`,
      );
    }
    assert.equal((await deliveriesOf(b, bHook.webhook_id))[0]!.state, 'delivered');
  });

  it('delivers the chosen events in order, signed with the secret shown once, and lists them delivered', async () => {
    const c = await newOrg();
    const created = assertOk(await c.webhooks.create({ url: `${receiver.url}/ws`, event_types: workspaceTypes }));
    const secret = created.signing_secret!;
    assert.match(secret, /^whsec_[\w-]{43}$/);
    secrets.push(secret);
    assert.deepEqual(created.event_types, workspaceTypes);
    const id = created.webhook_id;
    assert.equal(assertOk(await c.webhooks.get(id)).signing_secret, undefined, 'the secret is shown once');
    assert.deepEqual(
      assertOk(await c.webhooks.list()).map((w) => [w.webhook_id, w.signing_secret]),
      [[id, undefined]],
    );

    const wg = await newWorkgroup(c);
    const ws = (await activeWorkspace(c, wg, { name: 'hooked' })).workspace_id!;
    const events = assertOk(
      await c.request<EventRecord[]>('GET', `${API_PREFIX}/events`, { query: { resource_id: ws, limit: 1000 } }),
    ).filter((e) => workspaceTypes.includes(e.type));
    assert.ok(events.length >= 2, 'created, then Active');
    await until(() => receiver.at('/ws').length >= events.length, 'the workspace events');
    const got = receiver.at('/ws');
    assert.deepEqual(
      got.map((r) => JSON.parse(r.body) as EventRecord),
      events,
      'every workspace event, in order, as the event pages show it; no workgroup event',
    );
    for (const r of got) {
      const event = JSON.parse(r.body) as EventRecord;
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['x-acacia-event-id'], String(event.event_id));
      assert.equal(r.headers['x-acacia-event-type'], event.type);
      assertSigned(secret, r);
    }

    const done = (d: WebhookDeliveryRecord[]) => d.length === events.length && d.every((x) => x.state === 'delivered');
    await until(async () => done(await deliveriesOf(c, id)), 'the deliveries recorded');
    const deliveries = await deliveriesOf(c, id);
    assert.deepEqual(
      deliveries.map((d) => d.event_id),
      events.map((e) => e.event_id).reverse(),
      'newest first',
    );
    for (const d of deliveries) {
      assert.equal(d.attempts, 1);
      assert.equal(d.last_status_code, 200);
      assert.ok(d.delivered_at);
      assert.equal(d.next_attempt_at, undefined);
    }
    // Paged like the other lists.
    const first = await c.webhooks.deliveries(id, { limit: 1 });
    assert.deepEqual(
      assertOk(first).map((d) => d.event_id),
      [events.at(-1)!.event_id],
    );
    const cursor = String(first.headers['x-next-cursor']);
    assert.deepEqual(
      assertOk(await c.webhooks.deliveries(id, { limit: 1000, cursor })).map((d) => d.event_id),
      events
        .slice(0, -1)
        .map((e) => e.event_id)
        .reverse(),
    );

    assertOk(await c.webhooks.delete(id));
    assertError(await c.webhooks.get(id), 404, 'Not-Found', 'webhook_id');
  });

  it('the signature checks of docs/events.md take a real delivery, refuse it stale, re-timed or changed', async (t) => {
    const c = await newOrg();
    const hook = assertOk(
      await c.webhooks.create({ url: `${receiver.url}/documented`, event_types: ['workgroup.created'] }),
    );
    const secret = hook.signing_secret!;
    secrets.push(secret);
    await newWorkgroup(c);
    await until(() => receiver.at('/documented').length === 1, 'the delivery');
    const [r] = receiver.at('/documented');
    const signature = String(r!.headers['x-acacia-signature']);
    const now = Date.parse(assertOk(await c.moveClock({ advance_seconds: 0 })).now) / 1000;
    const retimed = signature.replace(/^t=(\d+)/, (_, s: string) => `t=${Number(s) - 1}`);
    // [body, signature header, receiver's clock, verified?]
    const cases: Array<[string, string, number, boolean]> = [
      [r!.body, signature, now, true],
      [r!.body, `${signature},v2=unknown`, now, true],
      [r!.body, signature, now + 301, false],
      [r!.body, retimed, now, false],
      [r!.body.replace('"type"', '"Type"'), signature, now, false],
      [r!.body, signature.replace(/v1=[0-9a-f]/, 'v1=x'), now, false],
    ];
    const expected = cases.map((k) => k[3]);
    const dir = mkdtempSync(path.join(tmpdir(), 'acacia-verify-'));
    try {
      const js = path.join(dir, 'verify.mjs');
      writeFileSync(js, docBlock('js'));
      const { verified } = (await import(pathToFileURL(js).href)) as {
        verified: (body: Buffer, header: string, secret: string, now: number) => boolean;
      };
      assert.deepEqual(
        cases.map(([body, header, at]) => verified(Buffer.from(body), header, secret, at)),
        expected,
        'Node.js',
      );
      const py = path.join(dir, 'verify.py');
      writeFileSync(
        py,
        `${docBlock('python')}\nimport json, sys\n` +
          'print(json.dumps([verified(b.encode(), h, s, n) for b, h, s, n in json.load(sys.stdin)]))\n',
      );
      const run = spawnSync('python3', [py], {
        input: JSON.stringify(cases.map(([body, header, at]) => [body, header, secret, at])),
        encoding: 'utf8',
      });
      if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return t.skip('no python3 here');
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), expected, 'Python');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('retries a delivery the receiver refused after the back-off, and then it is delivered', async () => {
    const c = await newOrg();
    receiver.answers.set('/flaky', [500]);
    const hook = assertOk(
      await c.webhooks.create({ url: `${receiver.url}/flaky`, event_types: ['workgroup.created'] }),
    );
    secrets.push(hook.signing_secret!);
    await newWorkgroup(c);
    await until(async () => (await deliveriesOf(c, hook.webhook_id))[0]?.last_status_code === 500, 'the first try');
    const [failed] = await deliveriesOf(c, hook.webhook_id);
    assert.equal(failed!.state, 'pending');
    assert.equal(failed!.attempts, 1);
    assert.match(failed!.last_error!, /500/);
    const now = Date.parse(assertOk(await c.moveClock({ advance_seconds: 0 })).now);
    assert.equal(Date.parse(failed!.next_attempt_at!), now + 5000, 'retried after ACACIA_RETRY_BACKOFF');
    assert.equal(receiver.at('/flaky').length, 1, 'not before the back-off');

    assertOk(await c.moveClock({ advance_seconds: 6 }));
    const [delivered] = await deliveriesOf(c, hook.webhook_id);
    assert.equal(delivered!.state, 'delivered');
    assert.equal(delivered!.attempts, 2);
    assert.equal(delivered!.last_status_code, 200);
    const got = receiver.at('/flaky');
    assert.equal(got.length, 2);
    assert.equal(got[0]!.body, got[1]!.body, 'the same event again');
    assertSigned(hook.signing_secret!, got[1]!);
  });

  it('is for org-admin keys, and another organisation cannot see a webhook', async () => {
    const c = await newOrg();
    const wg = await newWorkgroup(c);
    const hook = assertOk(await c.webhooks.create({ url: `${receiver.url}/mine` }));
    secrets.push(hook.signing_secret!);
    assert.equal(hook.event_types, undefined, 'every type');
    const once = { idempotencyKey: 'hook-once' };
    const first = assertOk(await c.webhooks.create({ url: `${receiver.url}/replayed` }, once));
    secrets.push(first.signing_secret!);
    const replay = assertOk(await c.webhooks.create({ url: `${receiver.url}/replayed` }, once));
    assert.equal(replay.webhook_id, first.webhook_id, 'a replay');
    assert.equal(replay.signing_secret, undefined, 'a replay does not show the secret again');
    assertOk(await c.webhooks.delete(first.webhook_id));
    const org = `hooks-${orgs}`;
    const viewer = await server.orgClient(org, { role: 'viewer' });
    const wgAdmin = await server.orgClient(org, { role: 'workgroup-admin', workgroupIds: [wg] });
    for (const k of [viewer, wgAdmin]) {
      assertError(await k.webhooks.create({ url: `${receiver.url}/theirs` }), 403, 'Forbidden', 'x-api-key');
      assertError(await k.webhooks.list(), 403, 'Forbidden', 'x-api-key');
      assertError(await k.webhooks.get(hook.webhook_id), 403, 'Forbidden', 'x-api-key');
    }
    const other = await newOrg();
    assertError(await other.webhooks.get(hook.webhook_id), 404, 'Not-Found', 'webhook_id');
    assertError(await other.webhooks.deliveries(hook.webhook_id), 404, 'Not-Found', 'webhook_id');
    assertError(await other.webhooks.delete(hook.webhook_id), 404, 'Not-Found', 'webhook_id');
    assert.deepEqual(assertOk(await other.webhooks.list()), []);
    assert.deepEqual(
      assertOk(await c.webhooks.list()).map((w) => w.webhook_id),
      [hook.webhook_id],
    );
  });

  it('refuses a bad url, a target that is not global unicast and an unknown event type, creating nothing', async () => {
    const answers = new Map<string, string[]>();
    const strict = await startTestServer({ ACACIA_SIM_SPEED: '0' }, undefined, {
      resolveWebhookHost: async (host) => answers.get(host) ?? [],
    });
    try {
      const c = strict.client;
      const refused: Array<[unknown, string]> = [
        [{ url: 'ftp://192.0.2.1/hook' }, 'url'],
        [{ url: 'not a url' }, 'url'],
        [{ url: 'http://user:secret@93.184.215.14/hook' }, 'url'],
        [{ url: `http://93.184.215.14/${'a'.repeat(2048)}` }, 'url'],
        [{ url: `${receiver.url}/private` }, 'url'],
        [{ url: 'http://nowhere.hooks.test/hook' }, 'url'],
        [{ url: 'http://93.184.215.14/hook', event_types: ['workspace.exploded'] }, 'event_types[0]'],
        [{ url: 'http://93.184.215.14/hook', event_types: [] }, 'event_types'],
      ];
      for (const [i, [label, address]] of notGlobal.entries()) {
        answers.set(`n${i}.hooks.test`, [address]);
        refused.push([{ url: `http://${literal(address)}/hook`, label }, 'url']);
        refused.push([{ url: `http://n${i}.hooks.test/hook`, label }, 'url']);
      }
      // One address of several is enough to refuse a name.
      answers.set('mixed.hooks.test', ['93.184.215.14', '10.0.0.1']);
      refused.push([{ url: 'http://mixed.hooks.test/hook' }, 'url']);
      for (const [body, field] of refused) {
        const { label, ...sent } = body as { label?: string };
        const res = await c.request('POST', `${API_PREFIX}/webhooks`, { body: sent });
        assert.equal(res.status, 400, `${label ?? ''} ${JSON.stringify(sent)}`);
        assertError(res, 400, 'Bad-Request', field);
      }
      assert.deepEqual(assertOk(await c.webhooks.list()), [], 'nothing was created');
      // A global unicast address is accepted, as a literal or as a name's answer.
      for (const [i, [label, address]] of global.entries()) {
        answers.set(`g${i}.hooks.test`, [address]);
        for (const url of [`http://${literal(address)}/hook`, `http://g${i}.hooks.test/hook`]) {
          // No event of this organisation is of this type: nothing is ever sent there.
          const ok = await c.webhooks.create({ url, event_types: ['backup.deleted'] });
          assert.equal(ok.status, 200, `${label}: ${url}`);
        }
      }
    } finally {
      await strict.close();
    }
  });

  it('judges the addresses again at each delivery, and connects to none that is not global unicast', async () => {
    const answers = new Map<string, string[]>();
    const strict = await startTestServer({ ACACIA_SIM_SPEED: '0' }, undefined, {
      resolveWebhookHost: async (host) => answers.get(host) ?? [],
    });
    try {
      const c = strict.client;
      const port = new URL(receiver.url).port;
      // Each a way to this host's loopback, where the receiver listens: a send would arrive.
      const local = ['127.0.0.1', '::ffff:127.0.0.1', '::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::1', '::1'];
      const hooks: string[] = [];
      for (const [i, address] of local.entries()) {
        answers.set(`rebind${i}.hooks.test`, ['2606:4700::1111']);
        const url = `http://rebind${i}.hooks.test:${port}/rebound-${i}`;
        hooks.push(assertOk(await c.webhooks.create({ url, event_types: ['workgroup.created'] })).webhook_id);
        // The name answers otherwise once the webhook is made.
        answers.set(`rebind${i}.hooks.test`, [address]);
      }
      await newWorkgroup(c);
      for (const [i, id] of hooks.entries()) {
        await until(async () => (await deliveriesOf(c, id))[0]?.state === 'failed', `the delivery to ${local[i]}`);
        const [d] = await deliveriesOf(c, id);
        assert.match(d!.last_error!, /not global unicast/, local[i]);
        assert.equal(d!.last_status_code, undefined, local[i]);
        assert.equal(receiver.at(`/rebound-${i}`).length, 0, `nothing reached the receiver through ${local[i]}`);
      }
    } finally {
      await strict.close();
    }
  });

  it("looks a target's name up before the write transaction: an idempotent create blocks no other write", async () => {
    let looking!: () => void;
    const lookingUp = new Promise<void>((resolve) => (looking = resolve));
    let answer!: (addresses: string[]) => void;
    const answered = new Promise<string[]>((resolve) => (answer = resolve));
    const slow = await startTestServer({ ACACIA_SIM_SPEED: '0' }, undefined, {
      resolveWebhookHost: async (host) => {
        if (host !== 'slow.hooks.test') return [];
        looking();
        return answered;
      },
    });
    try {
      const c = slow.client;
      // An Idempotency-Key runs the request's writes in one transaction: on SQLite, on its only writer.
      const creating = c.webhooks.create(
        { url: 'http://slow.hooks.test/hook', event_types: ['backup.deleted'] },
        { idempotencyKey: 'slow-lookup' },
      );
      await lookingUp;
      const guard = new AbortController();
      const blocked = timeout(5_000, 'blocked' as const, { signal: guard.signal }).catch(() => 'blocked' as const);
      const other = await Promise.race([c.apiKeys.create({ key_name: 'beside-a-lookup', role: 'viewer' }), blocked]);
      guard.abort();
      answer(['2606:4700::1111']);
      const created = assertOk(await creating);
      assert.notEqual(other, 'blocked', 'another write waited for the DNS lookup');
      assertOk(other as Exclude<typeof other, 'blocked'>);
      assert.equal(created.url, 'http://slow.hooks.test/hook');
      const replay = await c.webhooks.create(
        { url: 'http://slow.hooks.test/hook', event_types: ['backup.deleted'] },
        { idempotencyKey: 'slow-lookup' },
      );
      assert.equal(assertOk(replay).webhook_id, created.webhook_id, 'replayed');
      assert.equal(replay.headers['idempotent-replayed'], 'true');
    } finally {
      answer([]);
      await slow.close();
    }
  });

  it('keeps no signing secret in the store or the log', async () => {
    assert.ok(secrets.length >= 3);
    const logs = server.logs.join('\n');
    let stored = '';
    if (server.store.databaseUrl) {
      const db = new pg.Client({ connectionString: server.store.databaseUrl });
      await db.connect();
      try {
        const { rows } = await db.query<{ tablename: string }>(
          "select tablename from pg_tables where schemaname = 'public'",
        );
        for (const { tablename } of rows)
          stored += (await db.query(`select t::text as row from "${tablename}" t`)).rows.map((r) => r.row).join('\n');
      } finally {
        await db.end();
      }
      assert.match(stored, /webhooks?|hooks-1/, 'the rows were read');
    } else {
      for (const file of readdirSync(server.store.dataDir)) {
        const full = path.join(server.store.dataDir, file);
        if (statSync(full).isFile()) stored += readFileSync(full).toString('latin1');
      }
      assert.ok(stored.includes('/ws'), 'the store file was read');
    }
    for (const secret of secrets) {
      assert.ok(!stored.includes(secret), 'no secret in the store');
      assert.ok(!stored.includes(secret.slice('whsec_'.length)), 'not even without its prefix');
      assert.ok(!logs.includes(secret), 'no secret in the log');
    }
    const keyFile = path.join(server.store.dataDir, 'webhook.key');
    assert.equal(statSync(keyFile).mode & 0o777, 0o600, 'the installation key is readable by its owner only');
  });

  it('holds an organisation to webhooks_per_organisation (20), however many creates arrive at once', async () => {
    const c = await newOrg();
    const create = (i: number) =>
      c.webhooks.create({ url: `${receiver.url}/capped-${i}`, event_types: ['workspace.deleted'] });
    for (let i = 0; i < 17; i++) secrets.push(assertOk(await create(i)).signing_secret!);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create(100 + i)));
    assert.equal(results.filter((r) => r.status === 200).length, 3, results.map((r) => r.status).join(', '));
    for (const refused of results.filter((r) => r.status !== 200)) assertError(refused, 403, 'Quota-Exceed', 'url');
    assert.equal(assertOk(await c.webhooks.list()).length, 20, 'exactly the cap');
    // Another organisation has a cap of its own; a deleted webhook frees its place.
    assertOk(await (await newOrg()).webhooks.create({ url: `${receiver.url}/elsewhere` }));
    const [first] = assertOk(await c.webhooks.list());
    assertOk(await c.webhooks.delete(first!.webhook_id));
    assertOk(await create(200));
    assertError(await create(201), 403, 'Quota-Exceed', 'url');
  });

  it('the deletion of a resource is delivered too', async () => {
    const c = await newOrg();
    const hook = assertOk(await c.webhooks.create({ url: `${receiver.url}/gone`, event_types: ['workgroup.deleted'] }));
    secrets.push(hook.signing_secret!);
    const wg = await newWorkgroup(c);
    assertOk(await c.workgroups.delete(wg));
    await until(() => receiver.at('/gone').length === 1, 'the deletion event');
    assert.equal((JSON.parse(receiver.at('/gone')[0]!.body) as EventRecord).resource_id, wg);
    resultOf(await c.webhooks.delete(hook.webhook_id));
  });
});
