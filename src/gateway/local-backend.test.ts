import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import {
  DATA_PLANE_SECRET_HEADER,
  dataPlaneSecret,
  socketFolder,
  socketPath,
  startDataPlane,
} from '../dataplane/index.js';
import { localBackend } from './local-backend.js';
import type { BackendRequest } from './workspace-backend.js';
import type { WorkspaceToAdmit } from '../store/repositories/admission.js';

const ping: BackendRequest = {
  method: 'GET',
  path: '/api/ping',
  query: '',
  headers: {},
  body: undefined,
  identity: { orgId: 'o', workspaceId: 'w', userId: 'u', username: 'alice', via: 'password' },
};

const workspace = (endpoint: string): WorkspaceToAdmit =>
  ({
    id: 'ws-local',
    org_id: 'o',
    status: 'Active',
    err_message: '',
    tg_version: '4.2.1',
    endpoint,
  }) as WorkspaceToAdmit;

/** A port nothing listens on over TCP: bound, then released. */
async function unusedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** An HTTP server on `where` (a socket path, or a loopback TCP port): it answers who it is and the secret it got. */
async function answering(name: string, where: string | number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const body = JSON.stringify({ server: name, secret: req.headers[DATA_PLANE_SECRET_HEADER] });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) =>
    typeof where === 'number' ? server.listen(where, '127.0.0.1', resolve) : server.listen(where, resolve),
  );
  return server;
}

const closed = (server: http.Server) => {
  const done = new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  return done;
};

describe('local backend: the way into a data-plane process', () => {
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-local-socket-'));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('a process given a socket folder listens there too, replacing a stale file, removing it on stop', async () => {
    const folder = socketFolder(dataDir);
    const secret = randomBytes(24).toString('base64url');
    // A file left by a process that ended without closing, at the name the next one takes.
    const port = await unusedPort();
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    fs.writeFileSync(socketPath(folder, port)!, 'stale');
    const dp = await startDataPlane({ storeFile: path.join(dataDir, 'graph.db'), secret, port, socketFolder: folder });
    try {
      const file = socketPath(folder, dp.port)!;
      assert.ok(fs.statSync(file).isSocket());
      assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
      const viaSocket = new Agent({ connect: { socketPath: file } });
      const call = async (headers: Record<string, string>) => {
        const res = await request('http://localhost/api/ping', { dispatcher: viaSocket, headers });
        return { status: res.statusCode, json: (await res.body.json()) as { message: string; code?: string } };
      };
      const served = await call({ [DATA_PLANE_SECRET_HEADER]: secret });
      assert.equal(served.status, 200);
      assert.equal(served.json.message, 'pong');
      // The socket is another way into the same server: the secret is asked for all the same.
      const refused = await call({});
      assert.equal(refused.status, 401);
      assert.equal(refused.json.code, 'REST-10016');
      await viaSocket.close();
      await dp.stop();
      assert.equal(fs.existsSync(file), false);
    } finally {
      await dp.stop();
    }
  });

  it('a socket folder whose path is too long leaves the process on its TCP port alone', async () => {
    const folder = path.join(dataDir, 'x'.repeat(120));
    const secret = randomBytes(24).toString('base64url');
    const dp = await startDataPlane({ storeFile: path.join(dataDir, 'long.db'), secret, socketFolder: folder });
    try {
      assert.equal(socketPath(folder, dp.port), undefined);
      const res = await request(`${dp.url}/api/ping`, { headers: { [DATA_PLANE_SECRET_HEADER]: secret } });
      assert.equal(res.statusCode, 200);
      await res.body.dump();
    } finally {
      await dp.stop();
    }
  });

  it('forwards through the socket named by the endpoint’s port, with the workspace’s secret', async () => {
    const port = await unusedPort();
    fs.mkdirSync(socketFolder(dataDir), { recursive: true, mode: 0o700 });
    // Only the socket answers: nothing listens on the endpoint's TCP port.
    const local = await answering('socket', socketPath(socketFolder(dataDir), port)!);
    const backend = localBackend({ dataDir });
    try {
      const answer = await backend.serve(ping, workspace(`127.0.0.1:${port}`));
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(JSON.parse(String(answer.body)), {
        server: 'socket',
        secret: dataPlaneSecret(dataDir, 'ws-local'),
      });
    } finally {
      await backend.close?.();
      await closed(local);
    }
  });

  it('forwards to the endpoint itself where no socket is there', async () => {
    // Port 0: the system picks one, and no socket is named by it.
    const tcp = await answering('tcp', 0);
    const { port } = tcp.address() as AddressInfo;
    const backend = localBackend({ dataDir });
    try {
      const answer = await backend.serve(ping, workspace(`127.0.0.1:${port}`));
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(JSON.parse(String(answer.body)).server, 'tcp');
    } finally {
      await backend.close?.();
      await closed(tcp);
    }
  });
});
