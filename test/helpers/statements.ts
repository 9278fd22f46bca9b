import assert from 'node:assert/strict';
import type { ApiResponse } from '../../src/client/index.js';
import { storeName } from './server.js';

/** The statements a request ran on the store, from its Server-Timing header (ACACIA_SERVER_TIMING=on). */
export function statementsOf(res: ApiResponse<unknown>): number {
  const timing = String(res.headers['server-timing'] ?? '');
  const match = /desc="(\d+) statements"/.exec(timing);
  assert.ok(match, `a Server-Timing header with the statement count, got "${timing}"`);
  return Number(match[1]);
}

/** What authenticating a request costs the store: PostgreSQL keeps a key it has seen (src/store/key-cache.ts). */
export const keyLookupStatements = storeName === 'postgres' ? 0 : 1;
