import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { growthExponent, LINEAR_EXPONENT } from '../../test/helpers/growth.js';
import { DataPlaneError } from './errors.js';
import { attributeMap, compareBy, matches, parseFilter, parseLimit, parseSelect, parseSort } from './query-params.js';

const attrs = attributeMap([
  { name: 'age', type: 'INT' },
  { name: 'name', type: 'STRING' },
  { name: 'active', type: 'BOOL' },
  { name: 'joined', type: 'DATETIME' },
  { name: 'score', type: 'DOUBLE' },
]);

function refused(fn: () => unknown, message: RegExp): void {
  assert.throws(
    fn,
    (err: unknown) => err instanceof DataPlaneError && err.code === 'REST-30001' && message.test(err.message),
  );
}

describe('parseFilter', () => {
  it('reads comma-joined conditions with every operator and typed values', () => {
    assert.deepEqual(parseFilter('age>=30, name="a,b", active=true,joined<"2024-01-01",score!=1.5', attrs), [
      { attr: 'age', op: '>=', value: 30 },
      { attr: 'name', op: '=', value: 'a,b' },
      { attr: 'active', op: '=', value: true },
      { attr: 'joined', op: '<', value: '2024-01-01 00:00:00' },
      { attr: 'score', op: '!=', value: 1.5 },
    ]);
    assert.deepEqual(parseFilter(undefined, attrs), []);
  });

  it('refuses unknown attributes, unquoted strings and values of the wrong type, naming them', () => {
    refused(() => parseFilter('shoe=1', attrs), /'shoe'/);
    refused(() => parseFilter('name=bob', attrs), /'bob' for 'name'.*double quotes/);
    refused(() => parseFilter('age="old"', attrs), /'age'.*not an INT/);
    refused(() => parseFilter('age~3', attrs), /'age~3' is not valid/);
  });

  it('joins at most 100 conditions', () => {
    assert.equal(parseFilter(Array.from({ length: 100 }, () => 'age>1').join(','), attrs).length, 100);
    refused(
      () => parseFilter(Array.from({ length: 1001 }, () => 'age>1').join(','), attrs),
      /1001 conditions; at most 100/,
    );
  });
});

describe('parseFilter on long values', () => {
  /** Values that made the patterns it used backtrack: quadratic in their length. */
  const shapes: Record<string, (n: number) => string> = {
    'digits then a letter': (n) => `age=${'1'.repeat(n)}x`,
    'a fraction then a letter': (n) => `score=1.${'1'.repeat(n)}x`,
    'blanks inside the value': (n) => `name=x${' '.repeat(n)}x`,
    'blanks and tabs inside the value': (n) => `age=1${' \t'.repeat(n / 2)}1`,
  };
  for (const [shape, make] of Object.entries(shapes))
    it(`${shape}: refused in time linear in its length`, () => {
      const exponent = growthExponent((n) => refused(() => parseFilter(make(n), attrs), /is not valid/), 2000);
      // The patterns it replaces backtracked: quadratic.
      assert.ok(exponent < LINEAR_EXPONENT, `cost grew as the length to the power ${exponent.toFixed(2)}`);
    });

  it('reads blanks around each part as before, and long numbers', () => {
    assert.deepEqual(parseFilter(' age >= 30 ,name = " a b " ', attrs), [
      { attr: 'age', op: '>=', value: 30 },
      { attr: 'name', op: '=', value: ' a b ' },
    ]);
    assert.deepEqual(parseFilter(`score<${'9'.repeat(400)}.5e-300`, attrs), [
      { attr: 'score', op: '<', value: Number(`${'9'.repeat(400)}.5e-300`) },
    ]);
    for (const value of ['1.', '.5', '+2', '-3e2'])
      assert.equal(parseFilter(`score=${value}`, attrs)[0]!.value, Number(value));
    refused(() => parseFilter('age=1 2', attrs), /'1 2' for 'age'/);
    refused(() => parseFilter('age', attrs), /'age' is not valid/);
  });
});

describe('sort, select and limit', () => {
  it('read attribute lists and a positive limit', () => {
    assert.deepEqual(parseSort('-age,name', attrs), [
      { attr: 'age', descending: true },
      { attr: 'name', descending: false },
    ]);
    assert.deepEqual(parseSelect('name, age', attrs), ['name', 'age']);
    assert.equal(parseSelect('', attrs), undefined);
    assert.equal(parseLimit('25'), 25);
    refused(() => parseLimit('0'), /limit '0'/);
    refused(() => parseLimit('ten'), /limit 'ten'/);
    refused(() => parseSort('-height', attrs), /'height'/);
  });

  it('keep each attribute once, so a list repeating one costs no more per row', () => {
    assert.deepEqual(parseSelect(Array(5000).fill('age').join(','), attrs), ['age']);
    assert.deepEqual(parseSort(`-age,name,${Array(5000).fill('age').join(',')}`, attrs), [
      { attr: 'age', descending: true },
      { attr: 'name', descending: false },
    ]);
  });
});

describe('matches and compareBy', () => {
  it('evaluate conditions and order on values already read', () => {
    const conds = parseFilter('age>20,name!="x"', attrs);
    assert.equal(matches(conds, { age: 21, name: 'y' }), true);
    assert.equal(matches(conds, { age: 21, name: 'x' }), false);
    assert.equal(matches(conds, { name: 'y' }), false, 'an attribute a row lacks never matches');
    const rows = [{ age: 2 }, { age: 9 }, { age: 5 }];
    assert.deepEqual(rows.sort(compareBy(parseSort('-age', attrs))), [{ age: 9 }, { age: 5 }, { age: 2 }]);
  });
});
