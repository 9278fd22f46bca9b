import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyOp, checkPrimaryId, checkValue, opFits, parseDatetime } from './attribute-values.js';
import type { AttributeTypeName } from './schema-types.js';

const accepts = (type: AttributeTypeName, input: unknown, stored: unknown) =>
  assert.deepEqual(checkValue(type, input), { ok: true, value: stored }, `${type} ${JSON.stringify(input)}`);
const refuses = (type: AttributeTypeName, input: unknown, reason: RegExp) => {
  const r = checkValue(type, input);
  assert.equal(r.ok, false, `${type} ${JSON.stringify(input)} should be refused`);
  assert.match((r as { reason: string }).reason, reason);
};

describe('checkValue', () => {
  it('INT and UINT take whole JSON numbers within the exact range only', () => {
    accepts('INT', -42, -42);
    accepts('UINT', 7, 7);
    refuses('INT', 1.5, /not an INT/);
    refuses('INT', '12', /not an INT/);
    refuses('INT', 2 ** 60, /exact INT range/);
    refuses('UINT', -1, /not a UINT/);
  });

  it('FLOAT and DOUBLE take finite numbers', () => {
    accepts('DOUBLE', 2, 2);
    accepts('FLOAT', -0.25, -0.25);
    refuses('DOUBLE', 'NaN', /not a DOUBLE/);
    refuses('FLOAT', null, /null is not a FLOAT/);
  });

  it('STRING takes strings only; BOOL takes booleans, 0/1 and "true"/"false" in any case', () => {
    accepts('STRING', '', '');
    refuses('STRING', 5, /not a STRING/);
    accepts('BOOL', false, false);
    accepts('BOOL', 1, true);
    accepts('BOOL', 'TRUE', true);
    refuses('BOOL', 2, /not a BOOL/);
    refuses('BOOL', 'yes', /not a BOOL/);
  });

  it('DATETIME is stored as "YYYY-MM-DD hh:mm:ss" from its accepted inputs', () => {
    accepts('DATETIME', '2024-02-29 23:59:59', '2024-02-29 23:59:59');
    accepts('DATETIME', '2024-03-01', '2024-03-01 00:00:00');
    accepts('DATETIME', '2024-03-01T08:09:10.123Z', '2024-03-01 08:09:10');
    accepts('DATETIME', 86400, '1970-01-02 00:00:00');
    refuses('DATETIME', '2023-02-29 00:00:00', /not a valid date/);
    refuses('DATETIME', '2024-01-01 24:00:00', /not a valid date/);
    refuses('DATETIME', '01/02/2024', /not a DATETIME/);
    refuses('DATETIME', '1500-01-01', /between 1582-10-15/);
    refuses('DATETIME', 1.5, /whole seconds/);
  });

  it('parseDatetime keeps UTC: no time zone shifts the value', () => {
    assert.deepEqual(parseDatetime('1999-12-31 23:00:00'), { ok: true, value: '1999-12-31 23:00:00' });
  });
});

describe('checkPrimaryId', () => {
  it('canonicalises numeric ids and refuses malformed ones', () => {
    assert.deepEqual(checkPrimaryId('INT', '007'), { ok: true, value: '7' });
    assert.deepEqual(checkPrimaryId('INT', '-0'), { ok: true, value: '0' });
    assert.deepEqual(checkPrimaryId('UINT', '+12'), { ok: true, value: '12' });
    assert.equal(checkPrimaryId('UINT', '-1').ok, false);
    assert.equal(checkPrimaryId('INT', '1e3').ok, false);
    assert.deepEqual(checkPrimaryId('STRING', ' a b '), { ok: true, value: ' a b ' });
    assert.equal(checkPrimaryId('STRING', '').ok, false);
  });
});

describe('operation codes', () => {
  it('apply to the types they make sense for', () => {
    assert.equal(opFits('add', 'INT'), true);
    assert.equal(opFits('add', 'STRING'), true);
    assert.equal(opFits('add', 'BOOL'), false);
    assert.equal(opFits('or', 'BOOL'), true);
    assert.equal(opFits('or', 'INT'), false);
    assert.equal(opFits('max', 'DATETIME'), true);
  });

  it('combine the stored value with the payload value', () => {
    assert.equal(applyOp('add', 3, 4), 7);
    assert.equal(applyOp('add', 'ab', 'c'), 'abc');
    assert.equal(applyOp('max', '2024-01-01 00:00:00', '2023-01-01 00:00:00'), '2024-01-01 00:00:00');
    assert.equal(applyOp('min', 3, -1), -1);
    assert.equal(applyOp('and', true, false), false);
    assert.equal(applyOp('or', false, true), true);
    assert.equal(applyOp('ignore_if_exists', 5, 9), 5);
  });
});
