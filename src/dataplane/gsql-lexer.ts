/** Tokens of the GSQL subset the data plane reads: words, numbers, strings and punctuation. */

export type TokenKind = 'word' | 'number' | 'string' | 'punct' | 'newline' | 'end';

export interface Token {
  kind: TokenKind;
  /** The text as written; for strings, the content without quotes and with escapes resolved. */
  text: string;
  line: number;
  column: number;
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

// Longest first, so ">=" is one token and not ">" then "=".
const puncts = ['>=', '<=', '!=', '(', ')', ',', ';', '=', '<', '>', '*', '|', '{', '}', '.', ':', '-', '+', '@'];

/**
 * Splits GSQL text into tokens. Newlines are kept as tokens because a GSQL statement may end
 * at the end of a line; `//`, `#` and `/* … *\/` comments are dropped.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const push = (kind: TokenKind, tokenText: string, at: number) =>
    tokens.push({ kind, text: tokenText, line, column: at - lineStart + 1 });

  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      push('newline', '\n', i);
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) throw new GsqlSyntaxError('Unterminated comment', line, i - lineStart + 1);
      for (let k = i; k < close; k++)
        if (text[k] === '\n') {
          line++;
          lineStart = k + 1;
        }
      i = close + 2;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[A-Za-z0-9_]/.test(text[j]!)) j++;
      push('word', text.slice(i, j), i);
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[0-9.]/.test(text[j]!)) j++;
      if (j < text.length && /[eE]/.test(text[j]!) && /[-+0-9]/.test(text[j + 1] ?? '')) {
        j += 2;
        while (j < text.length && /[0-9]/.test(text[j]!)) j++;
      }
      push('number', text.slice(i, j), i);
      i = j;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\n') break;
        if (text[j] === '\\' && j + 1 < text.length) {
          value += text[j + 1];
          j += 2;
          continue;
        }
        value += text[j];
        j++;
      }
      if (text[j] !== c) throw new GsqlSyntaxError('Unterminated string literal', line, i - lineStart + 1);
      push('string', value, i);
      i = j + 1;
      continue;
    }
    // Any other character is a token of its own: query bodies use many, the parser refuses them where they matter.
    const p = puncts.find((candidate) => text.startsWith(candidate, i)) ?? c;
    push('punct', p, i);
    i += p.length;
  }
  tokens.push({ kind: 'end', text: '', line, column: i - lineStart + 1 });
  return tokens;
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
]);

/**
 * Drops line breaks that do not end a statement (inside brackets, or before a word that
 * continues it, such as `WITH`) and turns the others into `;`.
 */
export function statementBreaks(tokens: Token[]): Token[] {
  const out: Token[] = [];
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && (t.text === '(' || t.text === '{')) depth++;
    if (t.kind === 'punct' && (t.text === ')' || t.text === '}')) depth = Math.max(0, depth - 1);
    if (t.kind !== 'newline') {
      out.push(t);
      continue;
    }
    if (depth > 0) continue;
    let j = i + 1;
    while (tokens[j]!.kind === 'newline') j++;
    const next = tokens[j]!;
    if (next.kind === 'end' || (next.kind === 'word' && statementStarts.has(next.text.toUpperCase())))
      out.push({ ...t, kind: 'punct', text: ';' });
  }
  return out;
}
