import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import { parseWithoutPositions as parse, gsqlSyntaxError as syntaxError } from '../../test/helpers/gsql-parse.js';
import { lex } from './gsql-lexer.js';
import { statementTokens } from './gsql-split.js';
import { runGsql } from './gsql-runner.js';

/** The statements the splitter finds, each as its tokens' texts. */
function split(text: string): string[][] {
  const out: string[][] = [[]];
  for (const t of statementTokens(lex(text, { lenient: true }))) {
    if (t.kind === 'break') out.push([]);
    else if (t.kind !== 'end') out.at(-1)!.push(t.text);
  }
  return out.filter((s) => s.length > 0);
}

const stores = scratchStores('gsql-shell');
const newStore = () => stores.open();

describe('BEGIN … END blocks', () => {
  it('keep the lines between as one statement, line breaks and semicolons included', () => {
    assert.deepEqual(split('BEGIN\nCREATE VERTEX v (\nPRIMARY_ID id INT);\nEND\nUSE GRAPH g'), [
      ['BEGIN', 'CREATE', 'VERTEX', 'v', '(', 'PRIMARY_ID', 'id', 'INT', ')', ';', 'END'],
      ['USE', 'GRAPH', 'g'],
    ]);
  });

  it('end only at an END alone on its line', () => {
    assert.deepEqual(split('BEGIN\nCREATE QUERY q() {\n IF x THEN y = 1;\nEND;\n}\nEND\nLS'), [
      ['BEGIN', 'CREATE', 'QUERY', 'q', '(', ')', '{', 'IF', 'x', 'THEN', 'y', '=', '1', ';'].concat([
        'END',
        ';',
        '}',
        'END',
      ]),
      ['LS'],
    ]);
  });

  it('parse as the statement inside', () => {
    assert.deepEqual(parse('BEGIN\nCREATE VERTEX v (\n  PRIMARY_ID id INT\n)\nEND\nLS'), [
      {
        kind: 'createVertex',
        decl: { name: 'v', primaryId: { name: 'id', type: 'INT' }, attributes: [], options: {} },
      },
      { kind: 'ls' },
    ]);
  });

  it('refuse an empty block or a missing END with the position', () => {
    const empty = syntaxError('BEGIN\nEND');
    assert.deepEqual([empty.line, empty.column], [2, 1]);
    const open = syntaxError('BEGIN\nLS\n');
    assert.match(open.message, /Encountered "<EOF>"/);
    const two = syntaxError('BEGIN\nLS\nLS\nEND');
    assert.deepEqual([two.line, two.column], [3, 1]);
  });
});

describe('SET, DROP GRAPH … CASCADE', () => {
  it('parse', () => {
    assert.deepEqual(parse('SET exit_on_error = FALSE\nDROP GRAPH g CASCADE\nDROP GRAPH h'), [
      { kind: 'set', name: 'exit_on_error', value: 'FALSE' },
      { kind: 'dropGraph', name: 'g', cascade: true },
      { kind: 'dropGraph', name: 'h', cascade: false },
    ]);
    const bad = syntaxError('SET exit_on_error FALSE');
    assert.deepEqual([bad.line, bad.column], [1, 19]);
  });

  it('exit_on_error = FALSE runs the statements after a refused one; the request still fails', () => {
    const store = newStore();
    const r = runGsql(store, 'SET exit_on_error = FALSE\nDROP GRAPH nope CASCADE\nCREATE GRAPH g()\nLS');
    assert.equal(r.ok, false);
    assert.match(r.output, /The graph nope does not exist/);
    assert.match(r.output, /The graph g is created\./);
    assert.match(r.output, /---- Graph g/, 'after CREATE GRAPH the session uses the new graph');
    assert.match(r.output, /__GSQL__RETURN__CODE__,212$/);
    assert.ok(store.catalog.graphs.has('g'));
  });

  it('by default the first refusal stops the rest', () => {
    const store = newStore();
    const r = runGsql(store, 'DROP GRAPH nope\nCREATE GRAPH g()');
    assert.equal(r.ok, false);
    assert.ok(!store.catalog.graphs.has('g'));
    const bad = runGsql(store, 'SET exit_on_error = MAYBE');
    assert.match(bad.output, /exit_on_error must be TRUE or FALSE/);
    const other = runGsql(store, 'SET colour = red');
    assert.match(other.output, /session parameter colour is not supported/);
  });
});

describe('HELP', () => {
  it('prints the summary under GSQL heading and runs in a request with other statements', () => {
    assert.deepEqual(parse('help\nLS'), [{ kind: 'help' }, { kind: 'ls' }]);
    const r = runGsql(newStore(), 'HELP');
    assert.equal(r.ok, true);
    const lines = r.output.split('\n');
    assert.equal(lines[0], 'GSQL Help: Summary of TigerGraph GSQL Shell commands.');
    assert.ok(lines.some((l) => /SCHEMA_CHANGE JOB/.test(l)));
  });
});
