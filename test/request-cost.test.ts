import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiResponse } from '../src/client/index.js';
import { assertError } from './helpers/assert.js';
import { slowestAnswerDuring } from './helpers/responsiveness.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';

/** About 1 MiB of JSON: arrays nested 63 deep around half a million numbers. */
const deepAndWide = Buffer.from(`${'['.repeat(63)}${'0,'.repeat(500_000)}0${']'.repeat(63)}`);

async function post(url: string, body: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.status, body: await res.json() } as ApiResponse<unknown>;
}

describe(`what a request costs is linear in its size (${storeName})`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('a large body sent without a key to a route that does not exist is not parsed', async () => {
    const { result, slowestMs } = await slowestAnswerDuring(`${server.url}/healthz`, () =>
      Promise.all(Array.from({ length: 4 }, () => post(`${server.url}/controller/v4/v2/nope`, deepAndWide))),
    );
    for (const res of result) assertError(res, 404, 'Not-Found', 'path');
    assert.ok(slowestMs < 1000, `/healthz waited ${Math.round(slowestMs)} ms`);
  });

  it('a large body checked for NUL and lone surrogates costs one visit per value', async () => {
    const withNul = Buffer.from(`${deepAndWide.subarray(0, -63).toString()},"\\u0000"${']'.repeat(63)}`);
    const { result, slowestMs } = await slowestAnswerDuring(`${server.url}/healthz`, () =>
      Promise.all(
        [deepAndWide, deepAndWide, withNul, withNul].map((body) =>
          post(`${server.url}/controller/v4/v2/workgroups`, body, { 'x-api-key': server.bootstrapKey }),
        ),
      ),
    );
    assert.ok(slowestMs < 1000, `/healthz waited ${Math.round(slowestMs)} ms`);
    // The body is no workgroup; with a NUL in it, the NUL is what is said first.
    assertError(result[0]!, 400, 'Bad-Request', 'body');
    const nul = assertError(result[2]!, 400, 'Bad-Request', `[0]${'[0]'.repeat(61)}[500001]`);
    assert.match(nul.Reason, /NUL/);
  });
});
