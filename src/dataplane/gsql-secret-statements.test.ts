import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lex } from './gsql-lexer.js';
import { parseSecretStatement } from './gsql-secret-statements.js';

const read = (text: string) =>
  parseSecretStatement([...lex(text, { lenient: true })].filter((t) => t.kind !== 'newline' && t.kind !== 'end'));

describe('parseSecretStatement', () => {
  it('reads secret statements from tokens, names that start with digits too', () => {
    assert.deepEqual(read('create secrets'), { kind: 'createSecret', alias: undefined });
    assert.deepEqual(read('CREATE SECRET 2nd_alias'), { kind: 'createSecret', alias: '2nd_alias' });
    assert.deepEqual(read('DROP SECRET 3e5abc, b\n c'), { kind: 'dropSecret', names: ['3e5abc', 'b', 'c'] });
    assert.deepEqual(read('SHOW SECRET'), { kind: 'showSecret' });
  });

  it('names what is wrong with a malformed secret statement', () => {
    assert.deepEqual(read('CREATE SECRET two  words'), {
      kind: 'badSecret',
      problem: 'CREATE SECRET takes one optional alias, not "two words"',
    });
    assert.equal(read('CREATE SECRET "quoted"').kind, 'badSecret');
    assert.equal(read('DROP SECRET a.b').kind, 'badSecret');
    assert.equal(read('SHOW SECRET x').kind, 'badSecret');
  });

  it('follows the statements that change the scope or the handling of failures', () => {
    assert.deepEqual(read('USE GRAPH g'), { kind: 'useGraph', graph: 'g' });
    assert.deepEqual(read('USE GLOBAL'), { kind: 'useGlobal' });
    assert.deepEqual(read('CREATE GRAPH tests()'), { kind: 'createGraph', graph: 'tests' });
    assert.deepEqual(read('DROP GRAPH tests CASCADE'), { kind: 'dropGraph', graph: 'tests' });
    assert.deepEqual(read('drop all'), { kind: 'dropAll' });
    assert.deepEqual(read('SET exit_on_error = FALSE'), { kind: 'exitOnError', exit: false });
    assert.deepEqual(read('SET exit_on_error = "true"'), { kind: 'exitOnError', exit: true });
    assert.deepEqual(read('SET exit_on_error = MAYBE'), { kind: 'other' });
    assert.deepEqual(read('USE GRAPH g h'), { kind: 'other' });
    assert.deepEqual(read('CREATE SECRETARY x'), { kind: 'other' });
    assert.deepEqual(read(''), { kind: 'blank' });
  });
});
