import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { iso } from './time.js';

const byDate = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('iso', () => {
  it('writes what Date does, to the second, across the years it computes and beyond', () => {
    const edges = [0, 999, 1000, 59_999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 4_107_542_400_000];
    const outside = [-1, -62_135_596_800_000, 253_402_300_799_999, 253_402_300_800_000, 8.64e15];
    for (const ms of [...edges, ...outside]) assert.equal(iso(ms), byDate(ms), String(ms));
    for (let i = 0; i < 200_000; i++) {
      const ms = Math.floor(Math.random() * 253_402_300_800_000);
      assert.equal(iso(ms), byDate(ms), String(ms));
    }
  });
});
