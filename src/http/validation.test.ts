import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldPath } from './validation.js';

describe('fieldPath', () => {
  it('writes JSON pointers as JSON paths', () => {
    assert.equal(fieldPath(''), '');
    assert.equal(fieldPath('', 'name'), 'name');
    assert.equal(fieldPath('/addons/1/addons_id'), 'addons[1].addons_id');
    assert.equal(fieldPath('/addons/1', 'enable'), 'addons[1].enable');
    assert.equal(fieldPath('/options', 'account_id'), 'options.account_id');
    assert.equal(fieldPath('/a~1b'), 'a/b');
  });
});
