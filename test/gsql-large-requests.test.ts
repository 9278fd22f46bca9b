import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { DATA_PLANE_SECRET_HEADER, startDataPlane, type DataPlaneProcess } from '../src/dataplane/index.js';
import { assertOk } from './helpers/assert.js';
import { gsqlShapes } from './helpers/growth.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import { freshStore, newKeyText, storeName, type StoreLocation } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

/**
 * A GSQL request of about a megabyte (the body limit) in the shapes that once made splitting
 * it quadratic: while the gateway and the data plane read it, other requests are answered at
 * once. The servers run as processes of their own, so one that blocks is measured from
 * outside it (and stopped after).
 */

const SIZE = 1_000_000;
const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basicAuth = `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}`;

interface Probe {
  url: string;
  headers?: Record<string, string>;
}

/**
 * Sends `send` and, until it is answered, asks `probe` again and again: each answer must come
 * within a second. Returns the answer to `send`.
 */
async function answeredMeanwhile<T>(send: () => Promise<T>, probe: Probe): Promise<T> {
  let done = false;
  const sent = send().finally(() => (done = true));
  // Settled either way: a failure is reported by the await below, after the probes.
  sent.catch(() => undefined);
  let probes = 0;
  do {
    const started = performance.now();
    const res = await request(probe.url, {
      headers: probe.headers ?? {},
      signal: AbortSignal.timeout(1000),
    }).catch((err: unknown) => {
      throw new Error(`${probe.url} was not answered within a second while the GSQL request ran: ${String(err)}`);
    });
    await res.body.arrayBuffer();
    assert.equal(res.statusCode, 200, probe.url);
    assert.ok(performance.now() - started < 1000, `${probe.url} took ${performance.now() - started} ms`);
    probes++;
  } while (!done);
  assert.ok(probes > 0);
  return sent;
}

describe(`a megabyte of GSQL through the gateway (${storeName})`, () => {
  let location: StoreLocation;
  let server: ServeProcess;
  let gsqlUrl: string;
  let echoUrl: string;

  before(async () => {
    location = await freshStore();
    server = await serveProcess(location, newKeyText(), { ACACIA_SIM_SPEED: '0' });
    const c = server.client;
    const wg = await newWorkgroup(c, 'big-gsql');
    const ws = await activeWorkspace(c, wg, { name: 'big-gsql-ws' });
    assertOk(await c.dbUsers.create(wg, ws.workspace_id!, alice));
    gsqlUrl = `${server.gatewayUrl}/w/${ws.workspace_id}/gsql/v1/statements`;
    echoUrl = `${server.gatewayUrl}/w/${ws.workspace_id}/restpp/echo`;
  });
  after(async () => {
    if (server) await stopProcess(server.child, 'SIGKILL');
    await location?.dispose();
  });

  for (const [shape, make] of Object.entries(gsqlShapes)) {
    it(`${shape}: the API and the gateway answer meanwhile, and the request is passed on`, async () => {
      const body = make(SIZE);
      const send = async () => {
        const res = await request(gsqlUrl, { method: 'POST', headers: { authorization: basicAuth }, body });
        return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
      };
      // The simulated driver's workspace answers what it cannot serve: the gateway read and passed it on.
      const first = await answeredMeanwhile(send, { url: `${server.url}/healthz` });
      assert.equal(first.status, 501, JSON.stringify(first.json));
      assert.equal(first.json.code, 'no-graph-data');
      const second = await answeredMeanwhile(send, { url: echoUrl, headers: { authorization: basicAuth } });
      assert.equal(second.status, 501);
    });
  }
});

describe('a megabyte of GSQL on a data-plane process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-big-gsql-'));
  const secret = randomBytes(24).toString('base64url');
  let dp: DataPlaneProcess;

  before(async () => {
    dp = await startDataPlane({ storeFile: path.join(dir, 'graph.db'), secret, bodyLimitBytes: 2 * SIZE });
  });
  after(async () => {
    await dp?.stop(100);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const [shape, make] of Object.entries(gsqlShapes)) {
    it(`${shape}: it answers other requests meanwhile, and the GSQL request with GSQL's verdict`, async () => {
      const headers = { [DATA_PLANE_SECRET_HEADER]: secret };
      const answer = await answeredMeanwhile(
        async () => {
          const res = await request(`${dp.url}/gsql/v1/statements`, { method: 'POST', headers, body: make(SIZE) });
          return { status: res.statusCode, text: await res.body.text() };
        },
        { url: `${dp.url}/api/ping`, headers },
      );
      assert.equal(answer.status, 200, answer.text.slice(0, 200));
    });
  }
});
