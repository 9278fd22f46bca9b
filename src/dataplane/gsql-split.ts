import { statementStarts, type Token } from './gsql-lexer.js';

/**
 * Where GSQL statements end: at a `;` outside brackets, and at a line break outside brackets
 * when the next token (past blank lines and comments) begins a statement or ends the text.
 * The data plane's parser and the gateway both cut requests here, so they never disagree.
 *
 * One pass over the tokens with constant state: a run of line breaks is decided once, by
 * the token after it, never by looking ahead from each of them.
 */
export function* statementTokens(tokens: Iterable<Token>): Generator<Token, void, undefined> {
  let depth = 0;
  /** The first line break of the run being read, when it may end a statement. */
  let pending: Token | undefined;
  /** Whether the statement being read has a token yet: a blank one is not ended by a line break. */
  let started = false;
  for (const t of tokens) {
    if (t.kind === 'newline') {
      if (depth === 0 && started) pending ??= t;
      continue;
    }
    if (pending) {
      if (t.kind === 'end' || (t.kind === 'word' && statementStarts.has(t.text.toUpperCase()))) {
        yield { ...pending, kind: 'break' };
        started = false;
      }
      pending = undefined;
    }
    if (t.kind === 'punct') {
      if (t.text === '(' || t.text === '{') depth++;
      else if (t.text === ')' || t.text === '}') depth = Math.max(0, depth - 1);
      else if (t.text === ';' && depth === 0) {
        yield { ...t, kind: 'break' };
        started = false;
        continue;
      }
    }
    if (t.kind !== 'end') started = true;
    yield t;
  }
}
