import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { buildCli } from '../src/cli/main.js';
import { assertError, assertOk } from './helpers/assert.js';
import { consoleIndex, ensureConsoleBuilt } from './helpers/console-build.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import type { ApiResponse } from '../src/client/index.js';
import type { ServiceIndex } from '../src/schemas/service-index.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe(`GET / and the console's files (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    ensureConsoleBuilt();
    server = await startTestServer();
  });
  after(() => server.close());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await request(`${server.url}${path}`, { headers });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  };
  const asEnvelope = <T>(r: { status: number; headers: ApiResponse<T>['headers']; text: string }): ApiResponse<T> => ({
    status: r.status,
    headers: r.headers,
    body: JSON.parse(r.text),
  });

  it('sends a browser (Accept preferring text/html) to /console, without a key', async () => {
    for (const accept of [BROWSER_ACCEPT, 'text/html', 'application/json;q=0.5, text/html']) {
      const res = await get('/', { accept });
      assert.equal(res.status, 302, accept);
      assert.equal(res.headers.location, '/console');
      assert.match(String(res.headers.vary), /accept/i);
    }
  });

  it('tells any other client, without a key, where the console, the reference and the OpenAPI are', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { accept: '*/*' },
      { accept: 'application/json' },
      { accept: 'text/html;q=0.5, application/json' },
    ]) {
      const res = await get('/', headers);
      const index = assertOk(asEnvelope<ServiceIndex>(res));
      assert.deepEqual(index.links, { console: '/console', docs: '/docs', openapi: '/openapi.json' });
      assert.equal(index.name, 'acacia');
      assert.match(String(res.headers['content-type']), /application\/json/);
      assert.match(String(res.headers.vary), /accept/i);
    }
    // …and the links lead somewhere.
    assert.equal((await get('/docs')).status, 200);
    assert.equal((await get('/openapi.json')).status, 200);
  });

  it('serves the built console at /console: the page never cached, hashed assets cached for good', async () => {
    const page = await get('/console');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.equal(page.headers['cache-control'], 'no-cache');
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(page.text, await readFile(consoleIndex, 'utf8'));

    const assets = [...page.text.matchAll(/\/console\/(assets\/[^"]+)/g)].map((m) => m[1]!);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), page.text);
    for (const asset of assets) {
      const res = await get(`/console/${asset}`);
      assert.equal(res.status, 200, asset);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.match(String(res.headers['content-type']), asset.endsWith('.js') ? /javascript/ : /text\/css/);
    }
  });

  it('answers a deep link or a reload of any console page with the app', async () => {
    for (const path of [
      '/console/',
      '/console/workgroups',
      '/console/workgroups/abc/workspaces/def',
      '/console/index.html',
    ]) {
      const res = await get(path, { accept: BROWSER_ACCEPT });
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['cache-control'], 'no-cache', path);
      assert.equal(res.text, await readFile(consoleIndex, 'utf8'), path);
    }
  });

  it('answers a missing asset, or a path leaving the folder, with a 404 envelope, not the page', async () => {
    assertError(asEnvelope(await get('/console/assets/index-gone.js')), 404, 'Not-Found', 'path');
    assertError(asEnvelope(await get('/console/favicon.ico')), 404, 'Not-Found', 'path');
    assertError(asEnvelope(await get('/console/%2e%2e/package.json')), 404, 'Not-Found', 'path');
    const res = await request(`${server.url}/console`, { method: 'POST' });
    assertError(
      { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as never },
      405,
      'Bad-Request',
      'method',
    );
  });

  it("brands the API reference as Acacia's: title, logo and favicon", async () => {
    const page = await get('/docs/');
    assert.equal(page.status, 200);
    assert.match(page.text, /<title>Acacia API reference<\/title>/);
    assert.doesNotMatch(page.text, /Swagger UI<\/title>|favicon-32x32\.png/, 'no renderer title or icon');
    const icon = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(page.text);
    assert.ok(icon, 'an icon of its own');
    const favicon = await get(new URL(icon[1]!, `${server.url}/docs/`).pathname);
    assert.equal(favicon.status, 200);
    assert.equal(favicon.headers['content-type'], 'image/svg+xml');
    assert.match(favicon.text, /^<svg /);

    const initializer = await get('/docs/static/swagger-initializer.js');
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(initializer.text);
    assert.ok(logo, 'the top bar gets a logo');
    const svg = Buffer.from(logo[1]!, 'base64').toString('utf8');
    assert.match(svg, />Acacia<\/text>/, 'the wordmark is Acacia');
    assert.doesNotMatch(svg, /fastify/i);
  });

  it('names, in the reference, only CLI commands the CLI has', async () => {
    const document = JSON.parse((await get('/openapi.json')).text) as { info: { description: string } };
    const named = [...document.info.description.matchAll(/`acacia ([a-z-]+) ([a-z-]+)/g)];
    assert.ok(named.length > 0, 'the reference names a command');
    const cli = buildCli();
    for (const [, group, verb] of named) {
      const command = cli.commands.find((c) => c.name() === group);
      assert.ok(command, `acacia ${group} exists`);
      assert.ok(
        command.commands.some((c) => c.name() === verb),
        `acacia ${group} ${verb} exists`,
      );
    }
  });
});
