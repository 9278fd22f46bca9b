import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventTypes } from '../schemas/event.js';
import { CreateWebhookBody } from '../schemas/webhook.js';
import { ALL_ERRORS_MAX_CHARS, bodyProblems, fieldPath, fitsIn } from './validation.js';

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

describe('fitsIn', () => {
  it('measures a value about as long as its JSON, without whitespace', () => {
    const value = { name: 'x'.repeat(100), list: [1, 2, 3], nested: { a: [true, null] } };
    const length = JSON.stringify(value).length;
    assert.equal(fitsIn(value, length + 16), true);
    assert.equal(fitsIn(value, length - 32), false);
    assert.equal(fitsIn('x'.repeat(10), 8), false);
    assert.equal(
      fitsIn(
        Array.from({ length: 1e6 }, () => 0),
        100,
      ),
      false,
    );
  });
});

describe('bodyProblems', () => {
  const url = 'http://203.0.113.9/hook';

  it('reports every problem of a small body', () => {
    assert.deepEqual(
      bodyProblems(CreateWebhookBody, { url: 7, event_types: ['nope'], extra: 1 })
        .map((d) => d.field)
        .sort(),
      ['event_types[0]', 'extra', 'url'],
    );
  });

  it('stops at the first problem of a large one: a list’s maxItems before its items', () => {
    // Ajv checks maxItems before items, and an all-errors pass would name every value.
    const list = Array.from({ length: 200_000 }, (_, i) => `nope-${i}`);
    assert.deepEqual(bodyProblems(CreateWebhookBody, { url, event_types: list }), [
      // A webhook may name each event type once.
      { field: 'event_types', reason: `must have at most ${eventTypes.length} items` },
    ]);
    const padded = { url: 'x'.repeat(ALL_ERRORS_MAX_CHARS), event_types: ['nope'] };
    assert.deepEqual(
      bodyProblems(CreateWebhookBody, padded).map((d) => d.field),
      ['url'],
    );
  });
});
