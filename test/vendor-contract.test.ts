import assert from 'node:assert/strict';
import { describe, type TestContext } from 'node:test';
import { API_PREFIX } from '../src/schemas/envelope.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';
import {
  envelopeValidator,
  expectations,
  operationKeys,
  readVendorDocument,
  vendorDocumentPath,
  type Expectation,
} from './helpers/vendor-document.js';

// Walks every operation of the real service's API description with a realistic request, in an
// order that makes each resource before it is needed and deletes them at the end, and checks
// every answer against the document's schema. An operation not served yet goes in `pending`: it
// is still sent, and reported skipped with what it answered; the test fails once it is served as
// documented, so that the list never goes stale.

const doc = readVendorDocument();
const {
  it: walk,
  before: setUp,
  after: tearDown,
} = suiteUnless(!doc && !process.env.CI && `the vendor document is not at ${vendorDocumentPath}`);

/** Operations not served yet, each with its area (none today). */
const pending: Record<string, string> = {};

/**
 * Where the document answers 204 with no body and Acacia, as on every other change, answers 200
 * with its envelope and the changed record (docs/compatibility.md): a success envelope is asked.
 */
const envelopeForNoContent = new Set(['PUT /users/{userId}/roles']);

/**
 * Where Acacia deliberately answers otherwise (docs/compatibility.md): payment processing and the
 * onboarding assistant are seams, refused with an `API-Disabled` envelope until configured. The
 * answer is checked against the document's own envelope and its ErrorType.
 */
const disabledUntilConfigured = new Set([
  'GET /billing/credit-cards',
  'DELETE /billing/credit-cards/{cardID}',
  'POST /billing/credit-cards/{cardID}',
  'POST /billing/payment/invoice',
  'POST /billing/session',
  'POST /workgroups/{workgroupID}/workspaces/{workspaceID}/onboarding/chat',
]);

const ARN = 'arn:aws:iam::123456789012:role/acacia/provisioner';

interface Request {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
  json: { Error?: boolean; ErrorDetails?: Array<{ Type?: string }>; Result?: unknown } | undefined;
}

/** The document's paths carry the API prefix but for a few; the walk names them without it. */
const docPaths = new Map<string, string>();
for (const key of doc ? operationKeys(doc) : []) {
  const [method, path] = key.split(' ') as [string, string];
  docPaths.set(`${method} ${path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path}`, key);
}

describe(`the vendor's API description, every operation (${storeName})`, () => {
  let server: TestServer;
  let expect: Map<string, Expectation>;
  const walked = new Set<string>();
  /** Ids the walk makes and later steps use. */
  const ids: Record<string, string> = {};

  setUp(async () => {
    assert.ok(doc, `CI places the vendor document at ${vendorDocumentPath}`);
    expect = expectations(doc);
    // One warm pooled workgroup for `pooled-workgroups/acquire` to hand out.
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_POOL_SIZE: '1' });
  });
  tearDown(() => server?.close());

  async function send(op: string, req: Request = {}): Promise<Answer> {
    const docKey = docPaths.get(op);
    assert.ok(docKey, `${op} is not an operation of the document`);
    const [method, template] = docKey.split(' ') as [string, string];
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = req.params?.[name];
      assert.ok(value, `${op}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    const query = req.query ? `?${new URLSearchParams(req.query)}` : '';
    const res = await fetch(`${server.url}${path}${query}`, {
      method,
      headers: {
        'x-api-key': server.bootstrapKey,
        ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...req.headers,
      },
      ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
    });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    let json: Answer['json'];
    if (contentType.includes('json') && text) json = JSON.parse(text) as Answer['json'];
    return { status: res.status, contentType, text, json };
  }

  /** What is wrong with the answer, measured against the document; empty when nothing is. */
  function problems(op: string, answer: Answer): string[] {
    const e = expect.get(docPaths.get(op)!)!;
    const head = `answered ${answer.status} ${answer.contentType}: ${answer.text.slice(0, 300)}`;
    if (disabledUntilConfigured.has(op)) {
      const validate = envelopeValidator(doc!);
      // The status is Acacia's choice (the error table's); the document speaks only of the Type.
      if (answer.status < 400 || !answer.json || answer.json.ErrorDetails?.[0]?.Type !== 'API-Disabled')
        return [`expected an API-Disabled refusal; ${head}`];
      return validate(answer.json) ? [] : validate.errors!.map((x) => `${x.instancePath} ${x.message}`);
    }
    if (envelopeForNoContent.has(op))
      return answer.status === 200 && answer.json?.Error === false ? [] : [`expected a success envelope; ${head}`];
    if (answer.status !== e.status) return [`expected ${e.status}; ${head}`];
    if (e.kind === 'empty') return answer.text === '' ? [] : [`expected no body; ${head}`];
    if (e.kind === 'text')
      return answer.contentType.startsWith(e.contentType) ? [] : [`expected ${e.contentType}; ${head}`];
    if (!answer.json || answer.json.Error !== false) return [`expected a success envelope; ${head}`];
    if (e.validate(answer.json)) return [];
    return e.validate.errors!.map((x) => `${x.instancePath || '/'} ${x.message} (${x.schemaPath})`);
  }

  /**
   * One operation of the walk: sends `request` and checks the answer, then `next` reads what later
   * steps need. A pending operation is skipped with what it answered, and fails once it conforms.
   */
  function step(op: string, request: () => Request | Promise<Request>, next?: (result: unknown) => unknown): void {
    walk(op, async (t: TestContext) => {
      walked.add(op);
      const area = pending[op];
      let req: Request;
      try {
        req = await request();
      } catch (err) {
        if (area) return t.skip(`pending (${area}): ${(err as Error).message}`);
        throw err;
      }
      const answer = await send(op, req);
      const wrong = problems(op, answer);
      if (area) {
        assert.ok(wrong.length > 0, `${op} is now served as documented: remove it from \`pending\``);
        return t.skip(`pending (${area}): ${wrong[0]!.slice(0, 200)}`);
      }
      assert.deepEqual(wrong, [], `${op}: ${JSON.stringify(answer.json ?? answer.text).slice(0, 2000)}`);
      // Every list the walk reads holds what it made, so that its items' schema is checked too.
      const result = answer.json?.Result;
      if (Array.isArray(result)) assert.ok(result.length > 0, `${op} listed nothing`);
      await next?.(result);
    });
  }

  const need = (name: string): string => {
    const value = ids[name];
    if (!value) throw new Error(`no ${name}: an earlier step did not make it`);
    return value;
  };
  const wgParams = () => ({ workgroupID: need('workgroup') });
  const wsParams = (ws = 'workspace') => ({ workgroupID: need('workgroup'), workspaceID: need(ws) });

  /** Polls (the engine finishes each step on its next tick) until `done` accepts the Result of a GET. */
  async function until(op: string, req: Request, done: (result: never) => boolean): Promise<void> {
    let last: Answer | undefined;
    for (let i = 0; i < 500; i++) {
      last = await send(op, req);
      if (done(last.json?.Result as never)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`${op} never reached what the walk waits for: ${last?.text}`);
  }
  const workspaceIs = (ws: string, status: string) =>
    until(
      'GET /workgroups/{workgroupID}/workspaces/{workspaceID}',
      { params: wsParams(ws) },
      (w: { status?: string }) => w?.status === status,
    );
  const workspaceGone = (ws: string) =>
    until('GET /workgroups/{workgroupID}/workspaces/{workspaceID}', { params: wsParams(ws) }, (w) => w === undefined);

  // Sizes, versions, regions; providers public and private.
  step(
    'GET /workspaces/meta',
    () => ({}),
    (meta) => {
      const versions = (meta as { tgVersions: Array<{ name: string }> }).tgVersions.map((v) => v.name);
      ids.oldVersion = versions[0]!;
      ids.newVersion = versions.at(-1)!;
    },
  );
  step(
    'GET /cloud-providers',
    () => ({}),
    (list) => {
      const p = (list as Array<{ id: string; type: string; platform: string; region: string }>).find(
        (x) => x.type === 'public' && x.platform === 'aws' && x.region === 'us-east-1',
      );
      ids.publicProvider = p!.id;
    },
  );
  step('GET /cloud-providers/public', () => ({}));
  step('POST /cloud-providers/validate', () => ({
    body: {
      platform: 'aws',
      region: 'us-east-1',
      role_arn: ARN,
      role_external_id: 'contract-ext',
      secure_connection: true,
    },
  }));
  step(
    'POST /cloud-providers',
    () => ({
      body: {
        name: 'contract-byoc',
        platform: 'aws',
        region: 'us-east-1',
        role_arn: ARN,
        role_external_id: 'contract-ext',
        options: { account_id: '123456789012', secure_connection: true },
      },
    }),
    async (p) => {
      ids.provider = (p as { id: string }).id;
      await until(
        'GET /cloud-providers/{cloudProviderID}',
        { params: { cloudProviderID: ids.provider } },
        (x: { status?: string }) => x?.status === 'Active',
      );
    },
  );
  step('GET /cloud-providers/{cloudProviderID}', () => ({ params: { cloudProviderID: need('provider') } }));
  step('PUT /cloud-providers/{cloudProviderID}', () => ({
    params: { cloudProviderID: need('provider') },
    body: { name: 'contract-byoc-renamed' },
  }));
  step(
    'PUT /cloud-providers/{cloudProviderID}/upgrade',
    () => ({
      params: { cloudProviderID: need('provider') },
      body: { cluster_enabled_log_types: ['api', 'audit'], components: [{ name: 'operator', version: '1.3.0' }] },
    }),
    () =>
      until(
        'GET /cloud-providers/{cloudProviderID}',
        { params: { cloudProviderID: ids.provider! } },
        (x: { status?: string }) => x?.status === 'Active',
      ),
  );
  step('GET /cloud-providers/all', async () => {
    // Only a platform administrator, a flag `acacia admin` gives, sees every organisation's.
    const services = server.running.services;
    const home = (await services.organisations.find('default'))!;
    const made = await services.users.create(home.id, { email: 'platform@example.com', platformAdmin: true });
    return { headers: { 'x-api-key': made.key.plaintext_key! } };
  });

  // A workgroup and its allow list.
  step(
    'POST /workgroups',
    () => ({ body: { cloud_provider_id: need('publicProvider'), name: 'contract', enable_application_log: true } }),
    (wg) => {
      ids.workgroup = (wg as { workgroup_id: string }).workgroup_id;
    },
  );
  step('GET /workgroups', () => ({}));
  step('GET /workgroups/{workgroupID}', () => ({ params: wgParams() }));
  step('PUT /workgroups/{workgroupID}', () => ({
    params: wgParams(),
    body: { workgroup_name: 'contract-renamed', enable_application_log: false },
  }));
  step(
    'POST /workgroups/{workgroupID}/allow_list',
    () => ({ params: wgParams(), body: { cidr: '127.0.0.1/32', note: 'this machine' } }),
    (entry) => {
      ids.allowEntry = (entry as { id: string }).id;
    },
  );
  step('GET /workgroups/{workgroupID}/allow_list', () => ({ params: wgParams() }));
  step('GET /workgroups/{workgroupID}/allow_list/current', () => ({ params: wgParams() }));
  step('PUT /workgroups/{workgroupID}/allow_list/{id}', () => ({
    params: { ...wgParams(), id: need('allowEntry') },
    body: { cidr: '127.0.0.0/24', note: 'the loopback range' },
  }));
  step('PUT /workgroups/{workgroupID}/allow_list/enable', () => ({ params: wgParams() }));
  step('PUT /workgroups/{workgroupID}/allow_list/disable', () => ({ params: wgParams() }));

  // A read-write workspace of an older version, its database, users and schedules.
  step(
    'POST /workgroups/{workgroupID}/workspaces',
    () => ({
      params: wgParams(),
      body: {
        name: 'contract-rw',
        workspace_type_name: 'TG-00',
        tg_version: need('oldVersion'),
        is_rw: true,
        enable_auto_start: true,
        auto_stop_minutes: 60,
        maintenance_window_day_of_week: 0,
        maintenance_window_hour_of_day: 3,
        maintenance_window_time_zone: 'UTC',
      },
    }),
    async (ws) => {
      ids.workspace = (ws as { workspace_id: string }).workspace_id;
      ids.database = (ws as { database_id: string }).database_id;
      await workspaceIs('workspace', 'Active');
    },
  );
  step('GET /workgroups/{workgroupID}/workspaces/{workspaceID}', () => ({ params: wsParams() }));
  step('PUT /workgroups/{workgroupID}/workspaces/{workspaceID}', () => ({
    params: wsParams(),
    body: { workspace_name: 'contract-main', auto_stop_minutes: 120 },
  }));
  step('GET /workgroups/{workgroupID}/databases/{databaseID}', () => ({
    params: { ...wgParams(), databaseID: need('database') },
  }));
  step('PUT /workgroups/{workgroupID}/databases/{databaseID}', () => ({
    params: { ...wgParams(), databaseID: need('database') },
    body: { tg_database_name: 'contract-db' },
  }));
  const dbUser = { username: 'contract_app', password: 'Contract-Walk-2026!' };
  step('POST /workgroups/{workgroupID}/workspaces/{workspaceID}/dbuser', () => ({ params: wsParams(), body: dbUser }));
  step('GET /workgroups/{workgroupID}/workspaces/{workspaceID}/dbuser', () => ({ params: wsParams() }));
  step('PUT /workgroups/{workgroupID}/workspaces/{workspaceID}/dbuser', () => ({
    params: wsParams(),
    body: { username: dbUser.username, password: 'Contract-Walk-2027!' },
  }));
  step('DELETE /workgroups/{workgroupID}/workspaces/{workspaceID}/dbuser', () => ({
    params: wsParams(),
    body: { username: dbUser.username },
  }));
  const schedule = () => ({
    workspace_id: need('workspace'),
    repeat: 'weekly',
    repeat_on: 'Mon',
    time: '07:30',
    timezone: 'Europe/Paris',
    workspace_type_name: 'TG-0',
  });
  step(
    'POST /workgroups/{workgroupID}/workspaces/{workspaceID}/schedules',
    () => ({ params: wsParams(), body: schedule() }),
    (s) => {
      ids.schedule = (s as { id: string }).id;
    },
  );
  step('GET /workgroups/{workgroupID}/workspaces/{workspaceID}/schedules', () => ({ params: wsParams() }));
  step('PUT /workgroups/{workgroupID}/workspaces/{workspaceID}/schedules/{scheduleID}', () => ({
    params: { ...wsParams(), scheduleID: need('schedule') },
    body: { ...schedule(), time: '08:00' },
  }));
  step('DELETE /workgroups/{workgroupID}/workspaces/{workspaceID}/schedules/{scheduleID}', () => ({
    params: { ...wsParams(), scheduleID: need('schedule') },
  }));

  // Backups: the schedule, a backup (taken through Acacia's own route: the document has none), a restore.
  step('POST /workgroups/{workgroupID}/workspaces/{workspaceID}/backups/schedule', () => ({
    params: wsParams(),
    body: { schedule: '0 3 * * *', max_backup_files: 7, max_reserved_days: 7, max_retry: 2, pause: false },
  }));
  step('GET /workgroups/{workgroupID}/workspaces/{workspaceID}/backups/schedule', () => ({ params: wsParams() }));
  step('GET /workgroups/{workgroupID}/workspaces/{workspaceID}/backups', async () => {
    const path = `${API_PREFIX}/workgroups/${need('workgroup')}/workspaces/${need('workspace')}/backups`;
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': server.bootstrapKey, 'content-type': 'application/json' },
      body: JSON.stringify({ tag: 'contract' }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    ids.backup = ((await res.json()) as { Result: { id: string } }).Result.id;
    await until(
      'GET /workgroups/{workgroupID}/workspaces/{workspaceID}/backups',
      { params: wsParams() },
      (list: Array<{ id: string; status: string }>) =>
        list?.some((b) => b.id === ids.backup && b.status === 'Succeeded'),
    );
    return { params: wsParams() };
  });
  step(
    'POST /workgroups/{workgroupID}/workspaces/{workspaceID}/backups/restore',
    () => ({ params: wsParams(), body: { backup_id: need('backup') } }),
    (job) => {
      ids.restoreJob = job as string;
    },
  );
  step(
    'GET /workgroups/{workgroupID}/workspaces/{workspaceID}/backups/{job}/status',
    () => ({ params: { ...wsParams(), job: need('restoreJob') } }),
    () => workspaceIs('workspace', 'Active'),
  );
  step('DELETE /workgroups/{workgroupID}/workspaces/{workspaceID}/backups', () => ({
    params: wsParams(),
    body: { backup_id: need('backup') },
  }));

  // Add-ons: the catalog's first add-on installed, a configuration, its workspaces.
  step('GET /addons/meta', () => ({}));
  step('POST /addons/request', () => ({
    body: { addon_name: 'Graph Data Science Library', message: 'For our fraud team.' },
  }));
  step(
    'POST /addons/{addonsID}/install',
    async () => {
      const res = await fetch(`${server.url}${API_PREFIX}/addons`, { headers: { 'x-api-key': server.bootstrapKey } });
      const catalog = ((await res.json()) as { Result: Array<{ addons_id: string; unique_name: string }> }).Result;
      ids.addon = catalog.find((a) => a.unique_name === 'insights')!.addons_id;
      return { params: { addonsID: ids.addon }, query: { enable: 'true' } };
    },
    (installed) => {
      ids.installed = (installed as { id: string }).id;
    },
  );
  step('GET /addons/{addonsID}/workspaces', async () => {
    // The workspace enables the installed add-on, so that the list has it.
    const res = await send('PUT /workgroups/{workgroupID}/workspaces/{workspaceID}', {
      params: wsParams(),
      body: { addons: [{ addons_id: need('addon'), enable: true }] },
    });
    assert.equal(res.status, 200, res.text);
    await workspaceIs('workspace', 'Active');
    return { params: { addonsID: need('addon') } };
  });
  step('GET /installed-addons', () => ({}));
  step('GET /installed-addons/{installedAddonsID}', () => ({ params: { installedAddonsID: need('installed') } }));
  step(
    'POST /add-ons/{installedAddonsID}/configs',
    () => ({
      params: { installedAddonsID: need('installed') },
      body: { config_name: 'theme', config_value: '{"mode":"dark"}' },
    }),
    (config) => {
      // A bare `object` in the document; Acacia answers the new configuration's id.
      ids.config = config as string;
    },
  );
  step('GET /installed-addons/{installedAddonsID}/configs/{configName}', () => ({
    params: { installedAddonsID: need('installed'), configName: 'theme' },
  }));
  step('PUT /add-ons/{installedAddonsID}/configs/{configID}', () => ({
    params: { installedAddonsID: need('installed'), configID: need('config') },
    body: { config_value: '{"mode":"light"}' },
  }));
  step('DELETE /add-ons/{installedAddonsID}/configs/{configID}', () => ({
    params: { installedAddonsID: need('installed'), configID: need('config') },
  }));

  // A read-only workspace on the same database, refreshed; the read-write one paused and resumed.
  step(
    'POST /workgroups/{workgroupID}/workspaces/{workspaceID}/refresh',
    async () => {
      const res = await send('POST /workgroups/{workgroupID}/workspaces', {
        params: wgParams(),
        body: { name: 'contract-ro', workspace_type_name: 'TG-00', is_rw: false, tg_database_id: need('database') },
      });
      assert.equal(res.status, 200, res.text);
      ids.readOnly = (res.json!.Result as { workspace_id: string }).workspace_id;
      await workspaceIs('readOnly', 'Active');
      return { params: wsParams('readOnly') };
    },
    () => workspaceIs('readOnly', 'Active'),
  );
  step(
    'POST /workgroups/{workgroupID}/workspaces/{workspaceID}/pause',
    () => ({ params: wsParams() }),
    // Paused with auto-start on, the workspace is Idle: it starts again on access.
    () => workspaceIs('workspace', 'Idle'),
  );
  step(
    'POST /workgroups/{workgroupID}/workspaces/{workspaceID}/resume',
    () => ({ params: wsParams() }),
    () => workspaceIs('workspace', 'Active'),
  );

  // Upgrades, metrics and the onboarding assistant of the read-write workspace: an upgrade
  // scheduled for the maintenance window is listed, then one now replaces it.
  step('POST /workgroups/{workgroupID}/workspaces/{workspaceID}/upgrade', () => ({
    params: wsParams(),
    body: { desired_version: need('newVersion'), scheduled: true },
  }));
  step('GET /workspaces/upgrade-next-window', () => ({}));
  step(
    'POST /workgroups/{workgroupID}/workspaces/{workspaceID}/upgrade',
    () => ({
      params: wsParams(),
      body: { desired_version: need('newVersion'), scheduled: false },
    }),
    () => workspaceIs('workspace', 'Active'),
  );
  step('GET /metrics/{workgroupID}/{workspaceID}', () => ({ params: wsParams() }));
  step('GET /observability/{workgroupID}/metrics', () => ({ params: wgParams() }));
  step('POST /workgroups/{workgroupID}/workspaces/{workspaceID}/onboarding/chat', () => ({
    params: wsParams(),
    headers: { ThreadID: 'contract-thread-1' },
    body: {
      message: 'How do I load a CSV file?',
      thread_id: 'contract-thread-1',
      type: 'text',
      workspace_id: need('workspace'),
    },
  }));

  // The organisation, its people and keys.
  step('GET /org/self', () => ({}));
  step('PUT /org', () => ({ body: { orgDisplayName: 'Contract Walkers', logoUrl: 'https://example.com/logo.png' } }));
  step('GET /org/quota', () => ({}));
  step(
    'GET /users',
    () => ({}),
    (users) => {
      const first = (users as Array<{ id: string; roles?: Array<{ name: string }> }>)[0]!;
      ids.user = first.id;
      ids.userRoles = JSON.stringify((first.roles ?? []).map((r) => r.name));
    },
  );
  step('PUT /users/{userId}/roles', () => ({
    params: { userId: need('user') },
    body: { roles: JSON.parse(need('userRoles')) as string[] },
  }));
  step(
    'POST /org/api-keys',
    () => ({ body: { description: 'contract walk', life_time_in_seconds: 3600 } }),
    (key) => {
      ids.orgKey = (key as { key_name: string }).key_name;
    },
  );
  step('GET /org/api-keys', () => ({}));
  step('DELETE /org/api-keys', () => ({ body: { key_name: need('orgKey') } }));

  // Billing: prices, credit and status are real; payment processing is a seam.
  const bearer = () => ({ headers: { Authorization: `Bearer ${server.bootstrapKey}` } });
  step('GET /billing/resource-pricing', () => ({}));
  step('GET /billing/credit', bearer);
  step('GET /billing/status', bearer);
  step('GET /billing/validation', () => ({}));
  step('GET /billing/credit-cards', () => ({}));
  step('POST /billing/credit-cards/{cardID}', () => ({ params: { cardID: 'card_contract' } }));
  step('DELETE /billing/credit-cards/{cardID}', () => ({ params: { cardID: 'card_contract' } }));
  step('POST /billing/payment/invoice', () => ({
    query: { year: '2026', month: '11', day: '1', productPlanId: 'plan_contract' },
  }));
  step('POST /billing/session', () => ({}));

  step('GET /pooled-workgroups/acquire', () => ({}));

  // Everything made is deleted, innermost first.
  step('DELETE /workgroups/{workgroupID}/allow_list/{id}', () => ({
    params: { ...wgParams(), id: need('allowEntry') },
  }));
  step(
    'DELETE /workgroups/{workgroupID}/workspaces/{workspaceID}',
    () => ({ params: wsParams('readOnly') }),
    async () => {
      await workspaceGone('readOnly');
      const res = await send('DELETE /workgroups/{workgroupID}/workspaces/{workspaceID}', { params: wsParams() });
      assert.deepEqual(problems('DELETE /workgroups/{workgroupID}/workspaces/{workspaceID}', res), []);
      await workspaceGone('workspace');
    },
  );
  step('DELETE /workgroups/{workgroupID}/databases/{databaseID}', () => ({
    params: { ...wgParams(), databaseID: need('database') },
  }));
  step('DELETE /workgroups/{workgroupID}', () => ({ params: wgParams() }));
  step('DELETE /cloud-providers/{cloudProviderID}', () => ({ params: { cloudProviderID: need('provider') } }));

  walk('walks every operation of the document once', (t: TestContext) => {
    const all = [...docPaths.keys()];
    const waiting = Object.keys(pending);
    t.diagnostic(`${all.length - waiting.length} of ${all.length} operations served; pending: ${waiting.join(', ')}`);
    assert.equal(all.length, 79);
    assert.deepEqual(
      all.filter((op) => !walked.has(op)),
      [],
      'operations the walk did not send',
    );
    for (const op of Object.keys(pending)) assert.ok(docPaths.has(op), `pending names ${op}, not an operation`);
  });
});
