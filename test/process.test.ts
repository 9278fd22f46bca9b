import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, it } from 'node:test';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { listeningUrl, runCli, spawnCli, storeEnv } from './helpers/cli.js';
import { stopProcess } from './helpers/serve.js';
import { freshStore, publicProvider, startTestServer, storeName } from './helpers/server.js';

describe(`durability and processes (${storeName})`, () => {
  it('keeps every record across a restart on the same store', async () => {
    const server = await startTestServer();
    try {
      const provider = await publicProvider(server.client);
      const wg = assertOk(
        await server.client.workgroups.create({
          cloud_provider_id: provider,
          name: 'durable',
          enable_encryption: true,
        }),
      );
      const renamed = assertOk(await server.client.workgroups.update(wg.workgroup_id, { workgroup_name: 'durable-2' }));
      const key = assertOk(
        await server.client.apiKeys.create({ key_name: 'durable-key', role: 'viewer' }),
      ).plaintext_key!;
      await server.restart();
      assert.deepEqual(assertOk(await server.client.workgroups.get(wg.workgroup_id)), renamed);
      assertOk(await server.client.withKey(key).workgroups.get(wg.workgroup_id));
      assert.equal(
        assertOk(await server.client.cloudProviders.list()).length,
        14,
        'seeding public providers again adds none',
      );
    } finally {
      await server.close();
    }
  });

  it('lets `acacia admin keys` create, list and revoke keys on the store of a running server', async () => {
    const server = await startTestServer();
    try {
      const env = storeEnv(server.store);
      const created = await runCli(
        ['admin', 'keys', 'create', '--org', 'cli-org', '--tier', 'paid', '--role', 'org-admin', '--name', 'from-cli'],
        env,
      );
      assert.equal(created.code, 0, created.stderr);
      const key = created.stdout.trim();
      assert.match(key, /^acacia_sk_/);
      const client = new AcaciaClient({ baseUrl: server.url, apiKey: key });
      assert.equal(assertOk(await client.meta()).tier, 'paid');

      const listed = await runCli(['admin', 'keys', 'list', '--org', 'cli-org'], env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        JSON.parse(listed.stdout).map((k: { key_name: string }) => k.key_name),
        ['from-cli'],
      );
      assert.ok(!listed.stdout.includes(key), 'list never prints a key');

      const revoked = await runCli(['admin', 'keys', 'revoke', '--org', 'cli-org', '--name', 'from-cli'], env);
      assert.equal(revoked.code, 0, revoked.stderr);
      assertError(await client.workgroups.list(), 401, 'Unauthorized', 'x-api-key');

      const bad = await runCli(['admin', 'keys', 'list', '--org', 'no-such-org'], env);
      assert.equal(bad.code, 7, 'Not-Found has its own exit status');
      assert.match(bad.stderr, /no organisation "no-such-org"/);

      // The API's rules for a key hold on the command line too, named by flag.
      const lifetime = await runCli(
        ['admin', 'keys', 'create', '--org', 'cli-org', '--name', 'bad-life', '--expires-in', '1h'],
        env,
      );
      assert.equal(lifetime.code, 4, 'Bad-Request');
      assert.match(lifetime.stderr, /--expires-in/);
      const name = await runCli(['admin', 'keys', 'create', '--org', 'cli-org', '--name', 'n'.repeat(65)], env);
      assert.equal(name.code, 4);
      assert.match(name.stderr, /--name/);
      // The name before `admin` existed still works, for one release, and says so.
      const expiring = await runCli(
        ['keys', 'create', '--org', 'cli-org', '--name', 'an-hour', '--expires-in', '3600', '--json'],
        env,
      );
      assert.match(expiring.stderr, /acacia keys is now acacia admin keys/);
      assert.equal(expiring.code, 0, expiring.stderr);
      assert.ok(JSON.parse(expiring.stdout).expires_at, 'a lifetime given makes a key that expires');
      assert.deepEqual(
        JSON.parse((await runCli(['admin', 'keys', 'list', '--org', 'cli-org'], env)).stdout).map(
          (k: { key_name: string }) => k.key_name,
        ),
        ['an-hour'],
      );
    } finally {
      await server.close();
    }
  });

  it('creates the bootstrap key on a first start, shows it once and saves it with mode 0600', async () => {
    const store = await freshStore();
    const child = spawnCli(['serve'], { ...storeEnv(store), ACACIA_PORT: '0', ACACIA_GATEWAY_PORT: '0' });
    const output = { stdout: '', stderr: '' };
    try {
      const url = await listeningUrl(child, output);
      const file = path.join(store.dataDir, 'bootstrap-key');
      const key = readFileSync(file, 'utf8').trim();
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.ok(output.stderr.includes(key), 'the key is shown once to the operator');
      assert.ok(!output.stdout.includes(key), 'the key is not in the JSON log stream');
      // The line that makes a CLI profile of this server names the key's file, not the key.
      assert.ok(
        output.stderr.includes(`npx acacia config set local --url ${url} --api-key-file ${file} --use`),
        output.stderr,
      );
      const wgs = resultOf(await new AcaciaClient({ baseUrl: url, apiKey: key }).workgroups.list());
      assert.deepEqual(wgs, []);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('close', r));
      await store.dispose();
    }
  });

  it('prints where it listens whatever the log level, and a profile line without the key', async () => {
    const store = await freshStore();
    const key = 'acacia_sk_quiet-start-test-key-0123456789abcdef';
    const child = spawnCli(['serve'], {
      ...storeEnv(store),
      ACACIA_PORT: '0',
      ACACIA_GATEWAY_PORT: '0',
      ACACIA_BOOTSTRAP_API_KEY: key,
      ACACIA_LOG_LEVEL: 'silent',
    });
    const output = { stdout: '', stderr: '' };
    try {
      const url = await listeningUrl(child, output);
      assert.match(
        output.stderr,
        /Acacia listening: API http:\/\/127\.0\.0\.1:\d+, gateway http:\/\/127\.0\.0\.1:\d+\n/,
      );
      assert.ok(output.stderr.includes(`--url ${url} --api-key "$ACACIA_BOOTSTRAP_API_KEY"`), output.stderr);
      assert.ok(!output.stderr.includes(key) && !output.stdout.includes(key), 'the key is never printed');
      assert.equal(output.stdout, '', 'silent: no log line at all');
    } finally {
      await stopProcess(child);
      await store.dispose();
    }
  });

  it('on SIGTERM stops accepting, finishes the in-flight request, closes the store and exits 0', async () => {
    const store = await freshStore();
    const key = 'acacia_sk_sigterm-test-key-0123456789abcdef';
    const child = spawnCli(['serve'], {
      ...storeEnv(store),
      ACACIA_PORT: '0',
      ACACIA_GATEWAY_PORT: '0',
      ACACIA_BOOTSTRAP_API_KEY: key,
    });
    const output = { stdout: '', stderr: '' };
    try {
      const url = await listeningUrl(child, output);
      const client = new AcaciaClient({ baseUrl: url, apiKey: key });
      const provider = await publicProvider(client);
      const body = JSON.stringify({ cloud_provider_id: provider, name: 'in-flight' });

      // Send the headers and half the body, then SIGTERM, then the rest.
      const target = new URL('/controller/v4/v2/workgroups', url);
      const req = http.request({
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
      });
      req.write(body.slice(0, 10));
      await new Promise((r) => setTimeout(r, 200));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      await assert.rejects(fetch(`${url}/healthz`), 'no new connections are accepted while shutting down');
      req.end(body.slice(10));

      const res = await response;
      assert.equal(res.status, 200, res.text);
      assert.equal(JSON.parse(res.text).Result.name, 'in-flight');
      assert.equal(await exited, 0);

      // The write was committed before the store closed.
      const again = await startTestServer({ ACACIA_BOOTSTRAP_API_KEY: key }, store);
      try {
        const wgs = resultOf(await new AcaciaClient({ baseUrl: again.url, apiKey: key }).workgroups.list());
        assert.deepEqual(
          wgs.map((w) => w.name),
          ['in-flight'],
        );
      } finally {
        await again.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await store.dispose();
    }
  });

  it('`acacia admin keys` refuses to make a store that is not there, saying where it looked', async () => {
    const store = await freshStore();
    try {
      // A fresh store no server has run on: an empty directory, or an empty PostgreSQL database.
      const res = await runCli(['admin', 'keys', 'list', '--org', 'default'], storeEnv(store));
      assert.equal(res.code, 7, res.stderr);
      const where = store.databaseUrl ? store.databaseUrl : path.join(store.dataDir, 'acacia.db');
      assert.ok(res.stderr.includes(`no Acacia store at ${where}`), res.stderr);
      assert.match(res.stderr, /acacia serve/);
      assert.deepEqual(readdirSync(store.dataDir), [], 'nothing was made');
    } finally {
      await store.dispose();
    }
  });
});
