import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { growthExponent, LINEAR_EXPONENT, gsqlShapes } from '../../test/helpers/growth.js';
import { parseGsql } from '../dataplane/gsql-parser.js';
import { classify, readStatements, readStatementsPausing, splitStatements } from './gsql-statements.js';

const codes = (text: string) => splitStatements(text).map((s) => s.code);

describe('splitStatements', () => {
  it('cuts at ; and at a line break before a statement word, keeping every character', () => {
    const text = '\n  USE GRAPH g\n  CREATE SECRET a ;LS;\n\nSHOW SECRET\n';
    assert.deepEqual(codes(text), ['USE GRAPH g', 'CREATE SECRET a', 'LS', 'SHOW SECRET']);
    assert.equal(
      splitStatements(text)
        .map((s) => s.text)
        .join(''),
      text,
    );
  });

  it('does not cut inside brackets, strings or comments, nor before a continuing word', () => {
    const text = [
      'CREATE VERTEX V (',
      '  id STRING,',
      '  note STRING DEFAULT "x; DROP SECRET y"',
      ')',
      'WITH STATS="none"',
      '/* CREATE SECRET z; */ CREATE QUERY q() { CREATE SECRET w; }',
      "DROP SECRET s1, s2 # 'quoted ; text'",
    ].join('\n');
    assert.deepEqual(codes(text), [
      'CREATE VERTEX V ( id STRING, note STRING DEFAULT "x; DROP SECRET y" ) WITH STATS="none"',
      'CREATE QUERY q() { CREATE SECRET w; }',
      'DROP SECRET s1, s2',
    ]);
  });

  it('keeps blank space and comments with the statement before them', () => {
    assert.deepEqual(splitStatements('LS;  // done\n'), [{ text: 'LS;  // done\n', code: 'LS' }]);
  });

  it('cuts where the data plane does, and cuts text it would refuse as sent', () => {
    const text = 'DROP QUERY q ) ;\nLS2\nSHOW SECRET';
    assert.deepEqual(codes(text), ['DROP QUERY q )', 'LS2', 'SHOW SECRET']);
    assert.deepEqual(
      parseGsql('CREATE DATA_SOURCE q ) ;\nLS\nLS').map((s) => s.kind),
      ['unsupported', 'ls', 'ls'],
    );
    const open = 'CREATE VERTEX V (id INT) WITH STATS="x; /* y\nSHOW SECRET\n';
    assert.deepEqual(splitStatements(open), [
      { text: 'CREATE VERTEX V (id INT) WITH STATS="x; /* y\n', code: 'CREATE VERTEX V (id INT) WITH STATS="x; /* y' },
      { text: 'SHOW SECRET\n', code: 'SHOW SECRET' },
    ]);
  });

  it('takes time linear in the size of the text', () => {
    for (const [shape, make] of Object.entries(gsqlShapes)) {
      const exponent = growthExponent((n) => splitStatements(make(n)), 1 << 12);
      // The rescans from each line break it replaces made it quadratic.
      assert.ok(
        exponent < LINEAR_EXPONENT,
        `${shape}: cost grew as the text's length to the power ${exponent.toFixed(2)}`,
      );
    }
  });
});

describe('readStatementsPausing', () => {
  /** Runs `read` while counting the turns other work got meanwhile. */
  async function turnsDuring<T>(read: () => Promise<T>): Promise<{ value: T; turns: number }> {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const value = await read();
    counting = false;
    return { value, turns };
  }

  it('reads what readStatements reads', async () => {
    for (const [shape, make] of Object.entries(gsqlShapes)) {
      const text = `SHOW SECRET\n${make(100_000)}`;
      assert.deepEqual(await readStatementsPausing(text), readStatements(text), shape);
    }
  });

  it('lets other work run while it reads a megabyte of tokens', async () => {
    const dense = { 'open brackets': gsqlShapes['open brackets']!(1_000_000), statements: 'LS;'.repeat(333_333) };
    for (const [shape, text] of Object.entries(dense)) {
      const { value, turns } = await turnsDuring(() => readStatementsPausing(text));
      assert.ok(value.length > 0);
      // A megabyte read in slices of 64 KiB: the other work ran between them.
      assert.ok(turns >= 10, `${shape}: other work ran ${turns} times`);
    }
  });
});

describe('classify', () => {
  it('reads the secret statements', () => {
    assert.deepEqual(classify('CREATE SECRET'), { kind: 'createSecret', alias: undefined });
    assert.deepEqual(classify('create secret my_alias'), { kind: 'createSecret', alias: 'my_alias' });
    assert.deepEqual(classify('SHOW SECRET'), { kind: 'showSecret' });
    assert.deepEqual(classify('show secrets'), { kind: 'showSecret' });
    assert.deepEqual(classify('DROP SECRET a, b c'), { kind: 'dropSecret', names: ['a', 'b', 'c'] });
  });

  it('names what is wrong with a malformed one instead of passing it on', () => {
    assert.equal(classify('CREATE SECRET a b').kind, 'badSecret');
    assert.equal(classify('SHOW SECRET a').kind, 'badSecret');
    assert.equal(classify('DROP SECRET').kind, 'badSecret');
    assert.equal(classify('DROP SECRET a-b').kind, 'badSecret');
  });

  it('tells scope statements and everything else apart', () => {
    assert.deepEqual(classify('USE GRAPH social'), { kind: 'useGraph', graph: 'social' });
    assert.deepEqual(classify('use global'), { kind: 'useGlobal' });
    assert.deepEqual(classify(''), { kind: 'blank' });
    assert.deepEqual(classify('CREATE SECRETARY x'), { kind: 'other', code: 'CREATE SECRETARY x' });
    assert.deepEqual(classify('LS'), { kind: 'other', code: 'LS' });
  });
});
