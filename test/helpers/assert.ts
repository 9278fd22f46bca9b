import assert from 'node:assert/strict';
import type { ApiResponse } from '../../src/client/index.js';
import type { ErrorDetail } from '../../src/schemas/envelope.js';

/** Asserts an error envelope: HTTP status, and one detail with this Type and FieldName; returns that detail. */
export function assertError(res: ApiResponse<unknown>, status: number, type: string, fieldName: string): ErrorDetail {
  assert.equal(res.status, status, `expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.Error, true);
  assert.equal('Result' in res.body, false, 'an error envelope carries no Result');
  assert.ok(typeof res.body.RequestID === 'string' && res.body.RequestID.length > 0);
  const match = res.body.ErrorDetails.find((d) => d.FieldName === fieldName && d.Type === type);
  assert.ok(match, `expected a ${type} detail for "${fieldName}", got ${JSON.stringify(res.body.ErrorDetails)}`);
  return match;
}

/** Asserts a success envelope and returns its Result. */
export function assertOk<T>(res: ApiResponse<T>): T {
  assert.equal(res.status, 200, `expected HTTP 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.Error, false);
  assert.deepEqual(res.body.ErrorDetails, []);
  assert.ok('Result' in res.body);
  return (res.body as { Result: T }).Result;
}
