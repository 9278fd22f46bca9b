import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertOk } from './helpers/assert.js';
import { parseResponse, type RawResponse } from './helpers/raw-http.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

interface Exchange {
  /** Whether the server answered 100 Continue before its final response. */
  continued: boolean;
  final: RawResponse;
}

/**
 * Sends a request's head with `Expect: 100-continue` and waits for the server's first
 * answer. On 100 Continue it sends the body and reads the final response; otherwise the
 * first answer is final and the body is never sent.
 */
function expectContinue(url: string, head: string, body: string): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let data = Buffer.alloc(0);
    let continued = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer; received ${JSON.stringify(data.toString('latin1'))}`));
    }, 5000);
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      const interim = /^HTTP\/1\.1 100 [^\r]*\r\n\r\n/.exec(data.toString('latin1'));
      if (interim && !continued) {
        continued = true;
        data = data.subarray(interim[0].length);
        socket.write(body);
      }
      const final = parseResponse(data);
      if (final && final.body.length >= Number(final.headers['content-length'] ?? 0)) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ continued, final });
      }
    });
    socket.on('connect', () =>
      socket.write(
        `${head}\r\nhost: ${hostname}:${port}\r\nexpect: 100-continue\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\n\r\n`,
      ),
    );
  });
}

const json = (r: RawResponse) => JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;

function assertEnvelopeError(r: RawResponse, status: number, type: string, field: string): void {
  assert.equal(r.status, status, r.body.toString());
  const body = json(r) as { Error: boolean; ErrorDetails: Array<{ Type: string; FieldName: string }> };
  assert.equal(body.Error, true);
  assert.deepEqual(
    body.ErrorDetails.map((d) => [d.Type, d.FieldName]),
    [[type, field]],
  );
}

describe(`Expect: 100-continue is answered after authentication (${storeName})`, () => {
  let server: TestServer;
  const body = JSON.stringify({ name: 'continued' });

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
  });
  after(() => server.close());

  it('answers 401 without 100 Continue when the API key is missing or unknown', async () => {
    const missing = await expectContinue(server.url, 'POST /controller/v4/v2/workgroups HTTP/1.1', body);
    assert.equal(missing.continued, false, 'the body was invited before the key was checked');
    assertEnvelopeError(missing.final, 401, 'Unauthorized', 'x-api-key');

    const unknown = await expectContinue(
      server.url,
      'POST /controller/v4/v2/workgroups HTTP/1.1\r\nx-api-key: acacia_sk_not-a-key',
      body,
    );
    assert.equal(unknown.continued, false);
    assertEnvelopeError(unknown.final, 401, 'Unauthorized', 'x-api-key');
  });

  it('answers 100 Continue to a valid key and then serves the request', async () => {
    const wg = await newWorkgroup(server.client);
    const answered = await expectContinue(
      server.url,
      `PUT /controller/v4/v2/workgroups/${wg} HTTP/1.1\r\nx-api-key: ${server.bootstrapKey}`,
      JSON.stringify({ workgroup_name: 'continued' }),
    );
    assert.equal(answered.continued, true);
    assert.equal(answered.final.status, 200, answered.final.body.toString());
    assert.equal((json(answered.final).Result as { name: string }).name, 'continued');
  });

  it('on the gateway, refuses missing credentials before 100 Continue and continues for a database user', async () => {
    const wg = await newWorkgroup(server.client);
    const ws = await activeWorkspace(server.client, wg, { name: 'continue-ws' });
    const alice = { username: 'alice', password: 'Graph-Secret-42' };
    assertOk(await server.client.dbUsers.create(wg, ws.workspace_id!, alice));
    const gateway = server.running.gatewayUrl;
    const path = `/w/${ws.workspace_id}/restpp/echo`;

    const anonymous = await expectContinue(gateway, `POST ${path} HTTP/1.1`, '{}');
    assert.equal(anonymous.continued, false);
    assert.equal(anonymous.final.status, 401);
    assert.equal(json(anonymous.final).code, 'unauthenticated');

    const basic = Buffer.from(`${alice.username}:${alice.password}`).toString('base64');
    const admitted = await expectContinue(gateway, `POST ${path} HTTP/1.1\r\nauthorization: Basic ${basic}`, '{}');
    assert.equal(admitted.continued, true);
    // Admitted: the gateway answers the echo with its body read.
    assert.equal(admitted.final.status, 200, admitted.final.body.toString());
    assert.equal(json(admitted.final).message, 'Hello GSQL');
  });
});
