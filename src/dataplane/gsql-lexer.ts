/**
 * Tokens of the GSQL subset the data plane reads: words, numbers, strings and punctuation.
 * The gateway reads requests with the same lexer (leniently) so that both cut them alike.
 */

export type TokenKind = 'word' | 'number' | 'string' | 'punct' | 'newline' | 'break' | 'end';

export interface Token {
  /** `break` is never read from the text: the statement splitter (gsql-split.ts) marks statement ends with it. */
  kind: TokenKind;
  /** The text as written; for strings, the content without quotes and with escapes resolved. */
  text: string;
  line: number;
  column: number;
  /** Where the token is in the text: `text.slice(start, end)` is it as written, quotes included. */
  start: number;
  end: number;
}

export class GsqlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

export interface LexOptions {
  /**
   * Never throw: an unterminated string runs to the end of its line, an unterminated comment
   * to the end of the text. The gateway cuts text it forwards as sent, errors and all.
   */
  lenient?: boolean;
}

// Longest first, so ">=" is one token and not ">" then "=". Query bodies add `@@`, `->`, `+=`, `==` and the like;
// `>>` and `<-` are left out, since `SET<VERTEX<T>>` and `a<-1` must still read as they do.
const puncts = [
  '>=',
  '<=',
  '!=',
  '<>',
  '==',
  '+=',
  '-=',
  '->',
  '@@',
  '&&',
  '||',
  '..',
  '(',
  ')',
  ',',
  ';',
  '=',
  '<',
  '>',
  '*',
  '|',
  '{',
  '}',
  '.',
  ':',
  '-',
  '+',
  '@',
];

const controlEscapes: Record<string, string> = { t: '\t', n: '\n', r: '\r' };

const isWordStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isWordChar = (c: number) => isWordStart(c) || isDigit(c);

/** `e5`, `E-3`, `e+2` at `k`: a number's exponent. */
function exponentAt(text: string, k: number): boolean {
  const e = text.charCodeAt(k);
  const after = text.charCodeAt(k + 1);
  return (e === 69 || e === 101) && (isDigit(after) || after === 45 || after === 43);
}

/**
 * A `.` at `k` that belongs to the number before it. `1..3` (a hop range) is two numbers around
 * `..`, and `*2.E>` (a repeated hop joined to the next) the number 2, `.` and a word; `1.e5` is
 * one number.
 */
function decimalPointAt(text: string, k: number): boolean {
  if (text.charCodeAt(k) !== 46 || text.charCodeAt(k + 1) === 46) return false;
  return !isWordStart(text.charCodeAt(k + 1)) || exponentAt(text, k + 1);
}

/**
 * Reads GSQL text into tokens, one pass, each character looked at a bounded number of times.
 * Newlines are kept as tokens because a GSQL statement may end at the end of a line;
 * `//`, `#` and `/* … *\/` comments are dropped. The last token is `end`.
 */
export function* lex(text: string, opts: LexOptions = {}): Generator<Token, void, undefined> {
  const n = text.length;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const token = (kind: TokenKind, tokenText: string, start: number, end: number, tokenLine = line, from = lineStart) =>
    ({ kind, text: tokenText, line: tokenLine, column: start - from + 1, start, end }) satisfies Token;
  /** Counts the line breaks in text[from, to), which a token or comment spans. */
  const newlinesIn = (from: number, to: number) => {
    for (let k = text.indexOf('\n', from); k >= 0 && k < to; k = text.indexOf('\n', k + 1)) {
      line++;
      lineStart = k + 1;
    }
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      yield token('newline', '\n', i, i + 1);
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) {
      i++;
      continue;
    }
    if (c === 35 || (c === 47 && text.charCodeAt(i + 1) === 47)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0 && !opts.lenient) throw new GsqlSyntaxError('Unterminated comment', line, i - lineStart + 1);
      const end = close < 0 ? n : close + 2;
      newlinesIn(i, end);
      i = end;
      continue;
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordChar(text.charCodeAt(j))) j++;
      yield token('word', text.slice(i, j), i, j);
      i = j;
      continue;
    }
    if (isDigit(c)) {
      let j = i + 1;
      while (j < n && (isDigit(text.charCodeAt(j)) || decimalPointAt(text, j))) j++;
      if (exponentAt(text, j)) {
        j += 2;
        while (j < n && isDigit(text.charCodeAt(j))) j++;
      }
      yield token('number', text.slice(i, j), i, j);
      i = j;
      continue;
    }
    // A quote right after a word is GSQL's previous-value mark (`s.@score'`), not the start of a string.
    if (c === 39 && i > 0 && isWordChar(text.charCodeAt(i - 1))) {
      yield token('punct', "'", i, i + 1);
      i++;
      continue;
    }
    if (c === 34 || c === 39) {
      // A string ends at its quote or, unterminated, at the end of its line; `\x` is x, even a line break.
      const startLine = line;
      const startOfLine = lineStart;
      const parts: string[] = [];
      let from = i + 1;
      let j = from;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === c || d === 10) break;
        if (d === 92 && j + 1 < n) {
          parts.push(text.slice(from, j));
          from = j + 1;
          // "\t", "\n" and "\r" are the control characters (a loading job's SEPARATOR and EOL use them).
          const control = controlEscapes[text[j + 1]!];
          if (control !== undefined) {
            parts.push(control);
            from = j + 2;
          }
          if (text.charCodeAt(j + 1) === 10) {
            line++;
            lineStart = j + 2;
          }
          j += 2;
          continue;
        }
        j++;
      }
      parts.push(text.slice(from, j));
      const closed = j < n && text.charCodeAt(j) === c;
      if (!closed && !opts.lenient)
        throw new GsqlSyntaxError('Unterminated string literal', startLine, i - startOfLine + 1);
      const end = closed ? j + 1 : j;
      yield token('string', parts.join(''), i, end, startLine, startOfLine);
      i = end;
      continue;
    }
    // Any other character is a token of its own: query bodies use many, the parser refuses them where they matter.
    const p = puncts.find((candidate) => text.startsWith(candidate, i)) ?? text[i]!;
    yield token('punct', p, i, i + p.length);
    i += p.length;
  }
  yield token('end', '', n, n);
}

/** Every token of the text, `end` last (strict: a bad string or comment throws). */
export function tokenize(text: string, opts: LexOptions = {}): Token[] {
  return [...lex(text, opts)];
}

/**
 * Words that begin a statement: at the top level, a line break before one ends the statement
 * before it. The gateway cuts GSQL requests with the same list, so both split alike.
 */
export const statementStarts: ReadonlySet<string> = new Set([
  'CREATE',
  'DROP',
  'USE',
  'LS',
  'SHOW',
  'INSTALL',
  'RUN',
  'INTERPRET',
  'ALTER',
  'GRANT',
  'REVOKE',
  'CLEAR',
  'BEGIN',
  'TYPEDEF',
  'SET',
  'IMPORT',
  'EXPORT',
  'ABORT',
  'RESUME',
  'UPSERT',
]);
