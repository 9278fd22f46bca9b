import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { API_PREFIX } from '../src/schemas/envelope.js';
import { assertOk } from './helpers/assert.js';
import { parseResponse, requestBytes, type RawResponse } from './helpers/raw-http.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import { freshStore, newKeyText, storeName } from './helpers/server.js';

// A stale answer needs the request to reach the other process within a millisecond or so
// of the commit, which a loaded machine makes rare: many short rounds.
const ROUNDS = storeName === 'sqlite' ? 400 : 100;
const TRIES = 5;

/** A kept-alive connection that sends one request at a time and reads its response. */
class Connection {
  private readonly socket: net.Socket;
  private data = Buffer.alloc(0);
  private waiting?: { resolve: (r: RawResponse) => void; onData?: () => void };

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = net.connect({ host: hostname, port: Number(port), noDelay: true });
    this.socket.on('error', () => undefined);
    this.socket.on('data', (chunk) => {
      this.waiting?.onData?.();
      this.data = Buffer.concat([this.data, chunk]);
      const response = parseResponse(this.data);
      const length = Number(response?.headers['content-length'] ?? NaN);
      if (!response || response.body.length < length) return;
      this.data = Buffer.alloc(0);
      const waiting = this.waiting!;
      this.waiting = undefined;
      waiting.resolve(response);
    });
  }

  /** Sends `bytes`; `onData` runs, synchronously, as the first bytes of the answer arrive. */
  send(bytes: Buffer, onData?: () => void): Promise<RawResponse> {
    return new Promise((resolve) => {
      this.waiting = { resolve, ...(onData ? { onData } : {}) };
      this.socket.write(bytes);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

const get = (key: string) =>
  requestBytes('GET', `${API_PREFIX}/workgroups`, [
    ['host', 'acacia'],
    ['x-api-key', key],
  ]);

describe(`revocation across processes (${storeName})`, () => {
  it(`a key revoked through one process is refused by another at once (${ROUNDS} × ${TRIES} requests)`, async () => {
    const store = await freshStore();
    const key = newKeyText();
    const processes: ServeProcess[] = [];
    const connections: Connection[] = [];
    const open = (url: string) => {
      const c = new Connection(url);
      connections.push(c);
      return c;
    };
    try {
      const env = { ACACIA_RATE_LIMIT: '0' };
      const a = await serveProcess(store, key, env);
      processes.push(a);
      const b = await serveProcess(store, key, env);
      processes.push(b);

      const nudge = open(b.url);
      const toA = open(a.url);
      const tries = Array.from({ length: TRIES }, () => open(b.url));
      const accepted: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const name = `revoked-${round}`;
        const plaintext = assertOk(await a.client.apiKeys.create({ key_name: name, role: 'viewer' })).plaintext_key!;
        assert.equal((await tries[0]!.send(get(plaintext))).status, 200);

        // The moment the revocation's answer starts to arrive, the key goes to the other process.
        let answers!: Promise<RawResponse[]>;
        const revoke = requestBytes('DELETE', `${API_PREFIX}/apikeys/${name}`, [
          ['host', 'acacia'],
          ['x-api-key', key],
        ]);
        // The other process is busy meanwhile, as a loaded server is: it answers a request
        // while the revocation commits.
        const nudged = nudge.send(get(key));
        const revoked = await toA.send(revoke, () => {
          answers ??= Promise.all(tries.map((c) => c.send(get(plaintext))));
        });
        assert.equal(revoked.status, 200);
        assert.equal((await nudged).status, 200);
        for (const res of await answers) {
          if (res.status !== 401) {
            accepted.push(`${name}: ${res.status}`);
            continue;
          }
          const detail = JSON.parse(res.body.toString()).ErrorDetails[0];
          assert.deepEqual([detail.Type, detail.FieldName], ['Unauthorized', 'x-api-key']);
          assert.match(detail.Reason, /revoked/);
        }
      }
      assert.deepEqual(accepted, [], 'every request after the revocation answered 401');
    } finally {
      for (const c of connections) c.close();
      for (const p of processes) await stopProcess(p.child, 'SIGKILL');
      await store.dispose();
    }
  });
});
