import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { growthExponent, LINEAR_EXPONENT, gsqlShapes } from '../../test/helpers/growth.js';
import { GsqlSyntaxError, lex, tokenize, type Token } from './gsql-lexer.js';
import { parseGsql } from './gsql-parser.js';
import { statementTokens } from './gsql-split.js';

/** The statements the splitter finds, each as its tokens' texts. */
function statements(text: string): string[][] {
  const out: string[][] = [[]];
  for (const t of statementTokens(lex(text, { lenient: true }))) {
    if (t.kind === 'break') out.push([]);
    else if (t.kind !== 'end') out.at(-1)!.push(t.text);
  }
  return out.filter((s) => s.length > 0);
}

describe('lex', () => {
  it('gives each token its place in the text', () => {
    const text = 'USE GRAPH g # note\n  x >= "a\\"b"';
    for (const t of tokenize(text).filter((t) => t.kind !== 'end'))
      assert.equal(text.slice(t.start, t.end), t.kind === 'string' ? '"a\\"b"' : t.text, t.kind);
  });

  it('leniently, runs an unterminated string to the end of its line and a comment to the end', () => {
    const kinds = (text: string) => tokenize(text, { lenient: true }).map((t) => [t.kind, t.text]);
    assert.deepEqual(kinds('a "open\nb'), [
      ['word', 'a'],
      ['string', 'open'],
      ['newline', '\n'],
      ['word', 'b'],
      ['end', ''],
    ]);
    assert.deepEqual(kinds('a /* open\nb'), [
      ['word', 'a'],
      ['end', ''],
    ]);
    assert.throws(() => tokenize('a /* open'), GsqlSyntaxError);
  });

  it('counts a line break escaped inside a string', () => {
    const tokens = tokenize('"a\\\nb" x');
    assert.deepEqual([tokens[0]!.text, tokens[1]!.line, tokens[1]!.column], ['a\nb', 2, 4]);
  });
});

describe('statementTokens', () => {
  it('ends a statement at ; and at a line break before a statement word, outside brackets', () => {
    assert.deepEqual(statements('\nLS;\n\nUSE GRAPH g\n  CREATE QUERY q() {\n  a;\n  LS\n}\nWITH x\nLS2\nSHOW'), [
      ['LS'],
      ['USE', 'GRAPH', 'g'],
      ['CREATE', 'QUERY', 'q', '(', ')', '{', 'a', ';', 'LS', '}', 'WITH', 'x', 'LS2'],
      ['SHOW'],
    ]);
    // A closing bracket too many does not open a statement that swallows the next.
    assert.deepEqual(statements('DROP QUERY q ) ; LS'), [['DROP', 'QUERY', 'q', ')'], ['LS']]);
  });

  it('reads each token once', () => {
    for (const [shape, make] of Object.entries(gsqlShapes))
      for (const size of [1 << 10, 1 << 13]) {
        let pulled = 0;
        const counted = function* (tokens: Iterable<Token>) {
          for (const t of tokens) {
            pulled++;
            yield t;
          }
        };
        const text = make(size);
        const all = tokenize(text, { lenient: true }).length;
        const out = [...statementTokens(counted(lex(text, { lenient: true })))].length;
        assert.equal(pulled, all, shape);
        assert.ok(out <= all && all <= text.length + 1, shape);
      }
  });

  it('parses in time linear in the size of the text', () => {
    for (const [shape, make] of Object.entries(gsqlShapes)) {
      const exponent = growthExponent((n) => {
        try {
          parseGsql(make(n));
        } catch (err) {
          if (!(err instanceof GsqlSyntaxError)) throw err;
        }
      }, 1 << 12);
      // The scan it replaces was quadratic.
      assert.ok(
        exponent < LINEAR_EXPONENT,
        `${shape}: cost grew as the text's length to the power ${exponent.toFixed(2)}`,
      );
    }
  });
});
