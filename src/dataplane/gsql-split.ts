import { statementStarts, type Token } from './gsql-lexer.js';

const isWord = (t: Token, word: string) => t.kind === 'word' && t.text.toUpperCase() === word;

/**
 * Where GSQL statements end: at a `;` outside brackets, and at a line break outside brackets
 * when the next token (past blank lines and comments) begins a statement or ends the text.
 * A `BEGIN` that starts a statement opens a block that runs to an `END` alone on its line:
 * everything between is one statement, whatever its line breaks and `;`s.
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
  /** Inside `BEGIN … END`; `lineFirst` says the next token is the first of its line. */
  let inBlock = false;
  let lineFirst = false;
  /** An `END` first on its line, held until the token after it says whether it closes the block. */
  let closing: Token | undefined;
  for (const t of tokens) {
    if (closing) {
      if (t.kind === 'newline' || t.kind === 'end') inBlock = false;
      yield closing;
      closing = undefined;
    }
    if (inBlock) {
      if (t.kind === 'newline') {
        lineFirst = true;
        continue;
      }
      if (t.kind !== 'end') {
        if (lineFirst && isWord(t, 'END')) closing = t;
        else yield t;
        lineFirst = false;
        continue;
      }
      inBlock = false;
    }
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
    if (!started && depth === 0 && isWord(t, 'BEGIN')) {
      inBlock = true;
      lineFirst = false;
      started = true;
      yield t;
      continue;
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
