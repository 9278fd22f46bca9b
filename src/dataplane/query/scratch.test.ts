import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScratchArrays } from './scratch.js';

describe('per-vertex arrays kept between runs', () => {
  it('hands an array back out filled as asked, whatever was left in it', () => {
    const scratch = new ScratchArrays(5);
    const column = scratch.float64(2.5);
    assert.deepEqual([...column], [2.5, 2.5, 2.5, 2.5, 2.5]);
    column[3] = 9;
    scratch.giveFloat64(column);
    const again = scratch.float64(0);
    assert.equal(again, column);
    assert.deepEqual([...again], [0, 0, 0, 0, 0]);

    const marks = scratch.uint8();
    marks[1] = 1;
    scratch.giveUint8(marks);
    assert.deepEqual([...scratch.uint8()], [0, 0, 0, 0, 0]);
    const stamps = scratch.uint32();
    stamps[4] = 7;
    scratch.giveUint32(stamps);
    assert.deepEqual([...scratch.uint32()], [0, 0, 0, 0, 0]);
  });

  it('keeps only arrays of its length, and a bounded number of them', () => {
    const scratch = new ScratchArrays(4);
    const other = new Float64Array(3);
    scratch.giveFloat64(other);
    assert.notEqual(scratch.float64(0), other);

    const taken = Array.from({ length: 100 }, () => scratch.uint8());
    for (const a of taken) scratch.giveUint8(a, true);
    const again = new Set(Array.from({ length: 100 }, () => scratch.uint8()));
    const reused = taken.filter((a) => again.has(a)).length;
    assert.ok(reused > 0 && reused <= 32, `${reused} arrays kept`);
  });

  it('keeps none of a graph so large that one array is over its share of the bytes', () => {
    const scratch = new ScratchArrays(3_000_000);
    const column = scratch.float64(0);
    scratch.giveFloat64(column);
    assert.notEqual(scratch.float64(0), column);
  });
});
