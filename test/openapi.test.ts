import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { request } from 'undici';
import { API_PREFIX, AcaciaClient, resultOf, type ApiResponse } from '../src/client/index.js';
import { errorCodes } from '../src/listener/error-codes.js';
import { assertError, assertOk } from './helpers/assert.js';
import { resolveRefs } from './helpers/fuzz-cases.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus, windowTomorrow } from './helpers/workspaces.js';

const API = API_PREFIX;
const ARN = 'arn:aws:iam::123456789012:role/acacia/doc';

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters: Array<{ name: string; in: string; required?: boolean; schema: Json }>;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<
    string,
    { headers?: Record<string, unknown>; content?: Record<string, { schema: Json; example?: unknown }> }
  >;
}
interface Doc {
  openapi: string;
  info: { title: string; description: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Json & { required?: string[]; properties?: Record<string, Json> }>;
    responses: Record<string, Operation['responses'][string] & { description: string }>;
  };
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/** The operation of the document a concrete method and path fall under. */
function operationOf(doc: Doc, method: string, url: string): { path: string; op: Operation } | undefined {
  const path = url.split('?')[0]!;
  for (const [template, item] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = item[method.toLowerCase()];
    if (op && pattern.test(path)) return { path: template, op };
  }
  return undefined;
}

describe(`the OpenAPI document (${storeName})`, () => {
  let server: TestServer;
  let raw: Doc;
  let doc: Doc;

  before(async () => {
    server = await startTestServer({
      ACACIA_CLOCK: 'manual',
      ACACIA_SIM_SPEED: '0',
      ACACIA_WEBHOOK_ALLOW_PRIVATE: 'on',
      ACACIA_POOL_SIZE: '1',
    });
    raw = (await (await request(`${server.url}/openapi.json`)).body.json()) as Doc;
    doc = resolveRefs(raw);
  });
  after(() => server.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );

  it('documents each error response as the error table answers it', () => {
    const table = Object.values(errorCodes);
    for (const [name, response] of Object.entries(raw.components.responses)) {
      const example = response.content!['application/json']!.example as {
        Message: string;
        ErrorDetails: Array<{ Type: string }>;
      };
      const entry = table.find((e) => e.message === example.Message);
      assert.ok(entry, `${name}: the Message of a code of the error table`);
      assert.equal(example.ErrorDetails[0]!.Type, entry.type, `${name}: that code's Type`);
      const status = entry.status;
      for (const other of table.filter((e) => e.status === status && e !== entry))
        assert.ok(response.description.includes(other.message.replace(/\.$/, '')), `${name}: what else is ${status}`);
      if (table.some((e) => e.status === status && e.retryAfter !== undefined))
        assert.ok(response.headers?.['Retry-After'], `${name}: Retry-After, which every ${status} of the table sends`);
    }
    for (const { type, status } of table)
      assert.match(raw.info.description, new RegExp(`${type} [^;]*\\b${status}\\b`), `${type} comes with ${status}`);
  });

  it('names its server, its title and how to authenticate', async () => {
    assert.equal(raw.openapi, '3.1.0');
    assert.deepEqual(raw.servers, [{ url: '/', description: 'the server that serves this document' }]);
    assert.match(raw.info.title, /Acacia/);
    assert.match(raw.info.description, /Authorization: Bearer/);
    assert.match(raw.info.description, /"Error": false, "ErrorDetails": \[\]/);
    const docs = await (await request(`${server.url}/docs`)).body.text();
    assert.match(docs, /<title>Acacia API reference<\/title>/);
    const uiDoc = (await (await request(`${server.url}/docs/json`)).body.json()) as Doc;
    assert.deepEqual(uiDoc.servers, raw.servers, '/docs shows the same document');
  });

  it('is the same document whatever Host a request names, and may be cached by its ETag', async () => {
    const host = 'attacker.example';
    const forged = await request(`${server.url}/openapi.json`, { headers: { host } });
    const forgedText = await forged.body.text();
    assert.equal(forged.statusCode, 200);
    assert.ok(!forgedText.includes(host), 'the Host sent is nowhere in the document');
    const docs = await request(`${server.url}/docs/json`, { headers: { host } });
    assert.ok(!(await docs.body.text()).includes(host), 'nor in the one /docs shows');

    const plain = await request(`${server.url}/openapi.json`);
    assert.equal(await plain.body.text(), forgedText);
    const etag = String(plain.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    assert.equal(forged.headers.etag, etag);
    assert.equal(plain.headers['cache-control'], 'public, no-cache');
    const again = await request(`${server.url}/openapi.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(await again.body.text(), '');
  });

  it('gives every operation an id, a summary, a description, a tag and per-status responses', () => {
    for (const { path, method, op } of operations()) {
      const name = `${method.toUpperCase()} ${path}`;
      assert.ok(op.operationId && op.summary && op.description && op.tags?.length, name);
      if (path === '/metrics') continue;
      assert.ok(op.responses['200'], `${name} 200`);
      assert.ok(op.responses['400'] && op.responses['500'], `${name} 400 and 500`);
      if (op.security?.length !== 0) assert.ok(op.responses['401'], `${name} 401`);
      if (path.startsWith(API)) assert.ok(op.responses['429'], `${name} 429`);
      if (op.requestBody) assert.ok(op.responses['413'] && op.responses['415'], `${name} 413 and 415`);
      assert.equal(op.responses['4XX'], undefined, `${name} declares statuses one by one`);
    }
    const ws = doc.paths[`${API}/workgroups/{workgroupID}/workspaces/{workspaceID}`]!;
    assert.deepEqual(Object.keys(ws.get!.responses).sort(), ['200', '304', '400', '401', '404', '429', '500']);
    for (const s of ['403', '404', '409', '412']) assert.ok(ws.put!.responses[s], `PUT workspace ${s}`);
    assert.match(ws.put!.description!, /GET …\/workspaces\/\{workspaceID\}/, 'async changes say how to follow them');
    assert.match(
      doc.paths[`${API}/cloud-providers/{cloudProviderID}/upgrade`]!.put!.description!,
      /GET \/operations\/\{id\}/,
    );
  });

  it('declares the request and response headers', () => {
    const header = (op: Operation, name: string) => op.parameters.find((p) => p.in === 'header' && p.name === name);
    for (const { path, method, op } of operations()) {
      if (path === '/metrics') continue;
      assert.ok(header(op, 'X-Request-ID'), `${method} ${path} X-Request-ID`);
      assert.ok(op.responses['200']!.headers!['X-Request-ID'], `${method} ${path} 200 X-Request-ID`);
      if (method === 'post' && path.startsWith(API)) assert.ok(header(op, 'Idempotency-Key'), `${method} ${path}`);
    }
    const ws = doc.paths[`${API}/workgroups/{workgroupID}/workspaces/{workspaceID}`]!;
    assert.ok(header(ws.put!, 'If-Match'));
    assert.ok(header(ws.get!, 'If-None-Match'));
    assert.ok(ws.get!.responses['200']!.headers!.ETag);
    assert.ok(ws.get!.responses['200']!.headers!['RateLimit-Remaining']);
    assert.ok(doc.paths[`${API}/workgroups`]!.get!.responses['200']!.headers!['X-Next-Cursor']);
    const tooMany = ws.get!.responses['429']!.headers!;
    for (const h of ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
      assert.ok(tooMany[h], h);
    const raws = raw.components as unknown as { securitySchemes: Record<string, Json> };
    assert.deepEqual(raws.securitySchemes.bearer, {
      type: 'http',
      scheme: 'bearer',
      description: 'The same API key as `Authorization: Bearer <key>`, as the real service documents it.',
    });
  });

  it('marks required fields, closed vocabularies as enums, and names shared schemas', () => {
    const s = raw.components.schemas;
    for (const f of ['workspace_id', 'name', 'status', 'workgroup_id', 'proxy_host', 'version_number'])
      assert.ok(s.WorkspaceRecord!.required!.includes(f), `WorkspaceRecord.${f}`);
    assert.ok(!s.WorkspaceRecord!.required!.includes('err_message'), 'only what is always sent');
    const enumOf = (schema: string, field: string) => (s[schema]!.properties![field] as { enum?: string[] }).enum;
    assert.ok(enumOf('WorkspaceRecord', 'status')!.includes('Resuming'));
    assert.deepEqual(enumOf('BackupRecord', 'status'), ['InProgress', 'Succeeded', 'Failed']);
    assert.deepEqual(enumOf('ScheduleRecord', 'repeat'), ['daily', 'weekly', 'weekdays', 'once']);
    assert.deepEqual(enumOf('CloudProviderRecord', 'platform'), ['aws', 'azure', 'gcp']);
    assert.ok(enumOf('ErrorDetail', 'Type')!.includes('Quota-Exceed'));
    assert.ok(enumOf('ApiKeyRecord', 'role')!.includes('workspace-admin'));
    assert.ok(enumOf('OperationRecord', 'state')!.includes('succeeded'));
    const install = doc.paths[`${API}/addons/{addonsID}/install`]!.post!;
    assert.deepEqual(
      install.parameters.find((p) => p.name === 'enable'),
      {
        name: 'enable',
        in: 'query',
        required: true,
        description: 'true installs or enables, false disables',
        schema: { type: 'string', enum: ['true', 'false'] },
      },
    );
    assert.deepEqual(s.CreateCloudProviderBody!.required!.sort(), ['platform', 'region', 'role_arn']);
    // Shared schemas are referenced, not inlined.
    const get = raw.paths[`${API}/workgroups/{workgroupID}/workspaces/{workspaceID}`]!.get!;
    const envelope = get.responses['200']!.content!['application/json']!.schema as { properties: Json };
    assert.deepEqual(envelope.properties.Result, { $ref: '#/components/schemas/WorkspaceRecord' });
    assert.ok(Object.keys(s).length >= 40, `${Object.keys(s).length} named schemas`);
  });

  it('gives realistic examples that are valid against their schemas, never an error body under a 200', () => {
    let checked = 0;
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      for (const example of (schema.examples as unknown[] | undefined) ?? []) {
        const { examples: _examples, ...plain } = schema;
        const validate = ajv.compile(plain);
        assert.ok(validate(example), `${name} example: ${JSON.stringify(validate.errors)}`);
        checked++;
      }
    }
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const media = response.content?.['application/json'];
        if (!media || media.example === undefined) continue;
        const validate = ajv.compile(media.schema);
        assert.ok(validate(media.example), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`);
        assert.equal((media.example as Json).Error, status !== '200', `${method} ${path} ${status}`);
        checked++;
      }
    }
    assert.ok(checked > 100, `${checked} examples`);
    const create = doc.paths[`${API}/workgroups/{workgroupID}/workspaces`]!.post!;
    assert.equal((create.responses['200']!.content!['application/json']!.example as Json).Error, false);
  });

  it('describes what the server answers: every operation of a journey matches its schema for the status', async () => {
    const seen = new Map<string, Set<string>>();
    const problems: string[] = [];
    const check = (method: string, url: string, res: ApiResponse<unknown>) => {
      const found = operationOf(doc, method, url);
      if (!found) return problems.push(`${method} ${url}: not in the document`);
      const { path, op } = found;
      const statuses = seen.get(`${method.toUpperCase()} ${path}`) ?? new Set<string>();
      seen.set(`${method.toUpperCase()} ${path}`, statuses.add(String(res.status)));
      const response = op.responses[String(res.status)];
      if (!response) return problems.push(`${method} ${path}: status ${res.status} is not declared`);
      // A text answer (Prometheus metrics) is the client's Result as it came.
      const text = response.content?.['text/plain']?.schema;
      if (text) {
        const result = (res.body as { Result?: unknown }).Result;
        return ajv.compile(text)(result) || problems.push(`${method} ${path} ${res.status}: not its text`);
      }
      const schema = response.content?.['application/json']?.schema;
      if (!schema) return res.body === undefined || problems.push(`${method} ${path} ${res.status}: a body`);
      const validate = ajv.compile(schema);
      if (!validate(res.body))
        problems.push(`${method} ${path} ${res.status}: ${JSON.stringify(validate.errors).slice(0, 400)}`);
      for (const [name] of Object.entries(response.headers ?? {})) {
        if (
          ['ETag', 'X-Request-ID'].includes(name) &&
          res.status === 200 &&
          res.headers[name.toLowerCase()] === undefined
        )
          problems.push(`${method} ${path}: ${name} declared but not sent`);
      }
      return true;
    };
    const record = (client: AcaciaClient): AcaciaClient => {
      const send = client.request.bind(client);
      client.request = (async (method, path, opts) => {
        const res = await send(method, path, opts);
        check(method, path, res);
        return res;
      }) as AcaciaClient['request'];
      return client;
    };
    const c = record(server.client);

    // Workgroups, workspaces in every state, databases.
    const wg = await newWorkgroup(c, 'doc-journey');
    const ws = await activeWorkspace(c, wg, { name: 'doc-rw', x_test_env: 'topology=3MiB' });
    const ro = await activeWorkspace(c, wg, { name: 'doc-ro', is_rw: false, tg_database_id: ws.database_id });
    assertOk(await c.workspaces.refresh(wg, ro.workspace_id));
    const failed = resultOf(await c.workspaces.create(wg, { name: 'doc-failed', x_test_env: 'fail:create' }));
    await waitForStatus(c, wg, failed.workspace_id, 'Failed');
    assertOk(await c.workspaces.list(wg));
    assertOk(await c.workspaces.update(wg, ws.workspace_id, { auto_stop_minutes: 30 }, { ifMatch: ws.version_number }));
    assertError(await c.workspaces.update(wg, ws.workspace_id, {}, { ifMatch: 1 }), 412, 'Bad-Request', 'If-Match');
    const etag = (await c.workspaces.get(wg, ws.workspace_id)).headers.etag as string;
    assert.equal((await c.workspaces.get(wg, ws.workspace_id, { ifNoneMatch: etag })).status, 304);
    assertOk(await c.workgroups.get(wg));
    assertOk(await c.workgroups.list({ limit: 1 }));
    assertOk(await c.workgroups.update(wg, { workgroup_name: 'doc-journey-2' }));
    const db = assertOk(await c.databases.list(wg))[0]!;
    assertOk(await c.databases.get(wg, db.database_id));
    assertOk(await c.databases.rename(wg, db.database_id, { tg_database_name: 'doc-db' }));
    assertOk(await c.meta());
    assertOk(await c.meta({ upgrade: 'true' }));

    // Upgrades: one waiting for the window, listed; a workspace at the newest version has none to make.
    const window = await windowTomorrow(c);
    const older = assertOk(await c.workspaces.create(wg, { name: 'doc-older', tg_version: '4.1.0', ...window }));
    assertOk(await c.workspaces.upgrade(wg, older.workspace_id, { desired_version: '4.2.0', scheduled: true }));
    assert.equal(assertOk(await c.workspaces.upgradeNextWindow()).length, 1);
    assertError(await c.workspaces.upgrade(wg, ws.workspace_id, {}), 400, 'Bad-Request', 'desired_version');
    assertOk(await c.metrics.workspace(wg, ws.workspace_id));
    assertOk(await c.metrics.workgroup(wg));

    // Schedules, allow list, database users.
    const schedule = assertOk(
      await c.schedules.create(wg, ws.workspace_id, {
        workspace_id: ws.workspace_id,
        repeat: 'weekly',
        repeat_on: 'Mon',
        time: '03:00',
        timezone: 'UTC',
        action: 'pause',
      }),
    );
    assertOk(await c.schedules.list(wg, ws.workspace_id));
    assertOk(await c.schedules.get(wg, ws.workspace_id, schedule.id));
    assertOk(await c.schedules.getShort(ws.workspace_id, schedule.id));
    assertOk(await c.schedules.listShort(ws.workspace_id));
    const body = { workspace_id: ws.workspace_id, repeat: 'daily', time: '04:00', timezone: 'UTC' } as const;
    assertOk(await c.schedules.update(wg, ws.workspace_id, schedule.id, { ...body, action: 'pause' }));
    assertOk(await c.schedules.updateShort(ws.workspace_id, schedule.id, { ...body, action: 'pause' }));
    assertError(
      await c.schedules.update(wg, ws.workspace_id, schedule.id, { ...body, time: '25:00' }),
      400,
      'Bad-Request',
      'time',
    );
    const entry = assertOk(await c.allowList.create(wg, { cidr: '198.51.100.0/24', note: 'doc' }));
    assertError(await c.allowList.create(wg, { cidr: '198.51.100.0/24' }), 409, 'Bad-Request', 'cidr');
    assertError(await c.allowList.create(wg, { cidr: 'nonsense' }), 400, 'Bad-Request', 'cidr');
    assertOk(await c.allowList.list(wg));
    assertOk(await c.allowList.update(wg, entry.id, { cidr: '198.51.100.0/25' }));
    assertOk(await c.allowList.enable(wg));
    assertOk(await c.allowList.current(wg));
    assertOk(await c.allowList.disable(wg));
    assertOk(await c.allowList.delete(wg, entry.id));
    assertOk(await c.dbUsers.create(wg, ws.workspace_id, { username: 'doc_user', password: 'Doc-Passw0rd-1!' }));
    assertOk(await c.dbUsers.list(wg, ws.workspace_id));
    assertOk(await c.dbUsers.update(wg, ws.workspace_id, { username: 'doc_user', password: 'Doc-Passw0rd-2!' }));
    assertOk(await c.dbUsers.delete(wg, ws.workspace_id, { username: 'doc_user' }));
    // The simulated driver holds no graph: the data plane's 501 comes as the Result.
    const graph = assertOk(
      await c.workspaces.graphRequest(wg, ws.workspace_id, { method: 'GET', path: '/gsql/v1/schema/graphs' }),
    );
    assert.equal(graph.status, 501);

    // Backups, restores, the backup schedule.
    const backup = assertOk(await c.backups.create(wg, ws.workspace_id, { tag: 'doc' }));
    assertOk(await c.operations.list({ resource_id: backup.id }));
    for (
      let i = 0;
      i < 200 && resultOf(await c.backups.listByWorkspace(ws.workspace_id))[0]!.status === 'InProgress';
      i++
    )
      await new Promise((r) => setTimeout(r, 20));
    assertOk(await c.backups.list(wg, ws.workspace_id));
    const job = assertOk(await c.backups.restore(wg, ws.workspace_id, { backup_id: backup.id }));
    assertOk(await c.backups.restoreStatus(ws.workspace_id, job));
    await c.waitFor({ operation: job }, { intervalMs: 20, timeoutMs: 20_000 });
    assertOk(await c.backups.restoreStatus(ws.workspace_id, job));
    assertOk(await c.backups.status(wg, ws.workspace_id, job));
    assertOk(await c.backups.setSchedule(wg, ws.workspace_id, { schedule: '0 2 * * *' }));
    assertOk(await c.backups.setScheduleShort(ws.workspace_id, { max_retry: 2 }));
    assertOk(await c.backups.getSchedule(ws.workspace_id));
    assertOk(await c.backups.schedule(wg, ws.workspace_id));
    assertOk(await c.backups.delete(wg, ws.workspace_id, { backup_id: backup.id }));
    assertOk(await c.operations.get(job));
    // The changes above as events, one page.
    assertOk(await c.events.list({ limit: 1000 }));
    // Webhooks (this host's discard port; deleted before any event is sent to it).
    const hook = assertOk(
      await c.webhooks.create({ url: 'http://127.0.0.1:9/hook', event_types: ['workspace.created'] }),
    );
    assertOk(await c.webhooks.list());
    assertOk(await c.webhooks.get(hook.webhook_id));
    assertOk(await c.webhooks.deliveries(hook.webhook_id, { limit: 10 }));
    assertOk(await c.webhooks.delete(hook.webhook_id));

    // Add-ons.
    const addon = assertOk(await c.addons.catalog())[0]!;
    const installed = assertOk(await c.addons.install(addon.addons_id, { enable: 'true' }));
    assertOk(await c.addons.installed());
    assertOk(await c.addons.workspaces(addon.addons_id));
    const config = assertOk(await c.addons.createConfig(installed.id, { config_name: 'doc', config_value: 'v' }));
    assertOk(await c.addons.listConfigs(installed.id, 'doc'));
    assertOk(await c.addons.updateConfig(installed.id, config, { config_value: 'w' }));
    assertOk(await c.addons.getInstalled(installed.id));
    assertOk(await c.addons.meta());
    assertOk(await c.addons.request({ addon_name: addon.unique_name, message: 'doc' }));
    assertOk(await c.addons.requests());
    assertOk(await c.addons.deleteConfig(installed.id, config));

    // Cloud providers.
    const providers = assertOk(await c.cloudProviders.list());
    assertOk(await c.cloudProviders.listPublic());
    assertOk(await c.cloudProviders.get(providers[0]!.id));
    assertOk(await c.cloudProviders.validate({ platform: 'aws', region: 'us-east-1', role_arn: ARN }));
    const byoc = assertOk(await c.cloudProviders.create({ platform: 'aws', region: 'us-east-1', role_arn: ARN }));
    await c.waitForCloudProvider(byoc.id, (p) => p.status === 'Active');
    assertOk(await c.cloudProviders.update(byoc.id, { name: 'doc-byoc' }));
    const upgrade = assertOk(await c.cloudProviders.upgrade(byoc.id, { cluster_enabled_log_types: ['api'] }));
    await c.waitFor({ operation: upgrade }, { intervalMs: 20, timeoutMs: 20_000 });
    assertOk(await c.cloudProviders.delete(byoc.id));

    // API keys, and errors of every kind.
    const key = assertOk(await c.apiKeys.create({ description: 'doc' }));
    assertOk(await c.apiKeys.list());
    assertOk(await c.apiKeys.current());
    assertOk(await c.apiKeys.revoke(key.key_name));
    const second = assertOk(await c.apiKeys.create({ key_name: 'doc-second', role: 'viewer' }));
    const viewer = record(new AcaciaClient({ baseUrl: server.url, apiKey: second.plaintext_key!, auth: 'bearer' }));
    assertError(await viewer.workgroups.create({ cloud_provider_id: providers[0]!.id }), 403, 'Forbidden', 'x-api-key');
    assertError(await viewer.apiKeys.list(), 403, 'Forbidden', 'x-api-key');
    assert.equal(assertOk(await viewer.apiKeys.current()).role, 'viewer');
    assertOk(await c.apiKeys.delete({ key_name: 'doc-second' }));
    assertError(await record(c.withKey(undefined)).workgroups.list(), 401, 'Unauthorized', 'x-api-key');
    assertError(await c.workgroups.get('no-such-workgroup'), 404, 'Not-Found', 'workgroupID');
    assertError(await c.workgroups.delete(wg), 409, 'Bad-Request', 'workgroupID');
    assertOk(await c.moveClock({ advance_seconds: 1 }));
    // Billing: the price sheet and the account; the seams to outside services answer 501 here.
    assertOk(await c.billing.pricing());
    assertOk(await c.billing.credit());
    assertOk(await c.billing.status());
    assertOk(await c.billing.validation());
    assertOk(await c.billing.account());
    const seam = 'ACACIA_PAYMENT_PROCESSOR_URL';
    assertError(await c.billing.cards(), 501, 'API-Disabled', seam);
    assertError(await c.billing.deleteCard('card_1'), 501, 'API-Disabled', seam);
    assertError(await c.billing.setDefaultCard('card_1'), 501, 'API-Disabled', seam);
    assertError(
      await c.billing.payInvoice({ year: 2026, month: 1, day: 1, productPlanId: 'p' }),
      501,
      'API-Disabled',
      seam,
    );
    assertError(await c.billing.session(), 501, 'API-Disabled', seam);
    assertError(
      await c.workspaces.onboardingChat(wg, ws.workspace_id, { message: 'hi', thread_id: 't' }),
      501,
      'API-Disabled',
      'ACACIA_ASSISTANT_URL',
    );
    // Chaos rules (what one injects is off the contract by design: test/chaos.test.ts).
    const rule = assertOk(await c.chaos.add({ endpoint: 'getWorkspaceMeta', error_rate: 0, ttl_seconds: 60 }));
    assertOk(await c.chaos.list());
    assertOk(await c.chaos.delete(rule.chaos_rule_id));
    assertOk(await c.chaos.clear());
    assertOk(await c.health());
    assertOk(await c.ready());
    assertOk(await c.serverStatus());

    // The organisation, its users and roles, the keys at the real service's path, every provider.
    assertOk(await c.org.show());
    assertOk(await c.org.update({ orgDisplayName: 'Doc journey' }));
    assertOk(await c.org.quota());
    const orgKey = assertOk(await c.org.createApiKey({ description: 'doc journey' }));
    assertOk(await c.org.listApiKeys());
    assertOk(await c.org.deleteApiKey({ key_name: orgKey.key_name }));
    const invitation = assertOk(await c.users.invite({ email: 'doc@example.com' }));
    assertOk(await record(c.withKey(undefined)).users.accept({ token: invitation.invite_token }));
    assertOk(await c.users.list({ limit: 10 }));
    assertOk(await c.users.setRoles(invitation.user.id, { roles: [`workspace-admin:${ws.workspace_id}`] }));
    assertOk(await c.users.update(invitation.user.id, { enabled: false }));
    const home = (await server.running.services.organisations.find('default'))!;
    const ops = await server.running.services.users.create(home.id, { email: 'ops@example.com', platformAdmin: true });
    assertOk(await record(c.withKey(ops.key.plaintext_key!)).cloudProviders.listAll());

    // Pause, resume, and delete everything.
    assertOk(await c.workspaces.pause(wg, ws.workspace_id));
    await c.waitFor({ workgroup: wg, workspace: ws.workspace_id, status: 'Stopped' }, { intervalMs: 20 });
    assertOk(await c.workspaces.resume(wg, ws.workspace_id));
    await c.waitFor({ workgroup: wg, workspace: ws.workspace_id }, { intervalMs: 20 });
    assertOk(await c.schedules.delete(wg, ws.workspace_id, schedule.id));
    const again = assertOk(
      await c.schedules.create(wg, ws.workspace_id, { ...body, action: 'pause', workspace_id: ws.workspace_id }),
    );
    assertOk(await c.schedules.deleteShort(ws.workspace_id, again.id));
    for (const id of [ro.workspace_id, failed.workspace_id, older.workspace_id, ws.workspace_id]) {
      assertOk(await c.workspaces.delete(wg, id));
      await c.waitFor({ workgroup: wg, workspace: id, status: 'Deleted' }, { intervalMs: 20 });
    }
    for (const d of assertOk(await c.databases.list(wg))) assertOk(await c.databases.delete(wg, d.database_id));
    assertOk(await c.workgroups.delete(wg));
    // The pooled workgroup the server keeps warm, once the engine has it ready.
    for (let i = 0; i < 500 && (await server.running.services.pool.ready()) < 1; i++)
      await new Promise((r) => setTimeout(r, 20));
    assertOk(await c.workgroups.acquire());
    assertOk(await c.reset());

    assert.deepEqual(problems, []);
    // Every operation of the document was answered with 200 at least once; a seam to an outside
    // service that is not configured (501) with its 501.
    const unanswered = operations()
      .filter(({ path }) => path !== '/metrics')
      .filter(
        ({ path, method, op }) => !('501' in op.responses && seen.get(`${method.toUpperCase()} ${path}`)?.has('501')),
      )
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`)
      .filter((name) => !seen.get(name)?.has('200'));
    assert.deepEqual(unanswered, []);
  });
});
