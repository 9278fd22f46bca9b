import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { consoleRoutes, gatewayUrlFor } from './console.js';
import { renderAppError, toAppError } from './envelope.js';
import { components } from '../schemas/component.js';

async function appFor(dir: string) {
  const app = Fastify();
  // The root's response schema refers to the named schemas, as the API's app registers them.
  for (const schema of components().values()) app.addSchema(schema);
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = renderAppError(toAppError(error), request.id);
    reply.code(status).send(body);
  });
  await app.register(consoleRoutes, { version: '9.9.9', dir });
  return app;
}

describe('console files', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'acacia-console-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('says how to build the console when it is not built, on every console path', async () => {
    const app = await appFor(path.join(root, 'missing'));
    for (const url of ['/console', '/console/workgroups', '/console/assets/index-abc.js']) {
      const res = await app.inject({ url });
      assert.equal(res.statusCode, 404, url);
      const detail = res.json().ErrorDetails[0];
      assert.equal(detail.FieldName, 'path');
      assert.match(detail.Reason, /not built.*npm run build/);
    }
    // The root still answers.
    assert.equal((await app.inject({ url: '/' })).json().Result.version, '9.9.9');
  });

  it('serves files of the folder only: no dot-files, nothing above it', async () => {
    const dir = path.join(root, 'built');
    await mkdir(path.join(dir, 'assets'), { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>app</title>');
    await writeFile(path.join(dir, 'assets', 'app-123.js'), 'export {};');
    await writeFile(path.join(dir, '.secret'), 'no');
    await writeFile(path.join(root, 'outside.txt'), 'no');
    const app = await appFor(dir);
    assert.equal((await app.inject({ url: '/console/assets/app-123.js' })).statusCode, 200);
    for (const url of ['/console/.secret', '/console/..%2foutside.txt', '/console/assets/..%2f..%2foutside.txt']) {
      const res = await app.inject({ url });
      assert.notEqual(res.body, 'no', url);
    }
  });
});

describe("the console config's gateway URL", () => {
  it('is the address the gateway listens on, or the name the browser used where it listens on every address', () => {
    assert.equal(gatewayUrlFor('http://127.0.0.1:14240', 'ignored.example'), 'http://127.0.0.1:14240');
    assert.equal(gatewayUrlFor('http://[::1]:14240', 'ignored.example'), 'http://[::1]:14240');
    assert.equal(gatewayUrlFor('http://0.0.0.0:14240', 'acacia.internal'), 'http://acacia.internal:14240');
    assert.equal(gatewayUrlFor('http://[::]:14240', '192.0.2.7'), 'http://192.0.2.7:14240');
    assert.equal(gatewayUrlFor('http://[::]:14240', '[2001:db8::1]'), 'http://[2001:db8::1]:14240');
    assert.equal(gatewayUrlFor(undefined, 'acacia.internal'), null, 'no gateway (yet)');
  });

  it('is served without a key, never cached, null where the process runs no gateway', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'acacia-console-config-'));
    const app = await appFor(dir);
    try {
      const res = await app.inject({ method: 'GET', url: '/console/config.json' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(res.json(), { version: '9.9.9', gateway_url: null });
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
