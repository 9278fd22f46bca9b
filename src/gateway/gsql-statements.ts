import { statementStarts } from '../dataplane/gsql-lexer.js';

/**
 * Just enough GSQL to find the secret statements in a request: where statements end, and
 * what `CREATE|SHOW|DROP SECRET`, `USE GRAPH` and `USE GLOBAL` say. Everything else is the
 * workspace's to parse; this only has to cut the text where the data plane would.
 */

export interface GsqlStatement {
  /** The statement as sent, with the separator and blank space or comments after it. */
  text: string;
  /** Its words with comments removed, whitespace collapsed, no trailing `;`. */
  code: string;
}

export type GsqlCommand =
  | { kind: 'createSecret'; alias: string | undefined }
  | { kind: 'showSecret' }
  | { kind: 'dropSecret'; names: string[] }
  | { kind: 'badSecret'; problem: string }
  | { kind: 'useGraph'; graph: string }
  | { kind: 'useGlobal' }
  | { kind: 'blank' }
  | { kind: 'other'; code: string };

/** Index just past the comment starting at i, or i when none starts there. */
function skipComment(text: string, i: number): number {
  if (text[i] === '#' || (text[i] === '/' && text[i + 1] === '/')) {
    const nl = text.indexOf('\n', i);
    return nl < 0 ? text.length : nl;
  }
  if (text[i] === '/' && text[i + 1] === '*') {
    const close = text.indexOf('*/', i + 2);
    return close < 0 ? text.length : close + 2;
  }
  return i;
}

/** Whether the text after a line break (past blanks and comments) begins a new statement or ends. */
function statementFollows(text: string, from: number): boolean {
  let i = from;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    const next = skipComment(text, i);
    if (next === i) break;
    i = next;
  }
  if (i >= text.length) return true;
  const word = /^[A-Za-z_]+/.exec(text.slice(i, i + 16))?.[0];
  return word !== undefined && statementStarts.has(word.toUpperCase());
}

/**
 * Cuts a GSQL request into statements: at `;` or at a line break before a statement word,
 * outside brackets and strings.
 */
export function splitStatements(text: string): GsqlStatement[] {
  const out: GsqlStatement[] = [];
  let start = 0;
  let code = '';
  let depth = 0;
  const cut = (end: number) => {
    out.push({ text: text.slice(start, end), code: code.replace(/\s+/g, ' ').trim() });
    start = end;
    code = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const afterComment = skipComment(text, i);
    if (afterComment !== i) {
      code += ' ';
      i = afterComment;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      j = Math.min(j + 1, text.length);
      code += text.slice(i, j);
      i = j;
      continue;
    }
    if (c === '(' || c === '{') depth++;
    if (c === ')' || c === '}') depth = Math.max(0, depth - 1);
    if (depth === 0 && c === ';') {
      cut(i + 1);
      i++;
      continue;
    }
    if (depth === 0 && c === '\n' && code.trim() !== '' && statementFollows(text, i + 1)) {
      cut(i + 1);
      i++;
      continue;
    }
    code += c;
    i++;
  }
  if (start < text.length) cut(text.length);
  // Blank space and comments belong to the statement before them.
  const merged: GsqlStatement[] = [];
  for (const s of out) {
    const last = merged.at(-1);
    if (s.code === '' && last) last.text += s.text;
    else merged.push(s);
  }
  return merged;
}

const NAME = '[A-Za-z0-9_]+';

/** What one statement is, as far as the gateway cares. */
export function classify(code: string): GsqlCommand {
  if (code === '') return { kind: 'blank' };
  const secret = /^(CREATE|SHOW|DROP)\s+SECRETS?\b\s*(.*)$/i.exec(code);
  if (secret) {
    const verb = secret[1]!.toUpperCase();
    const rest = secret[2]!.trim();
    if (verb === 'CREATE') {
      if (rest === '' || new RegExp(`^${NAME}$`).test(rest)) return { kind: 'createSecret', alias: rest || undefined };
      return { kind: 'badSecret', problem: `CREATE SECRET takes one optional alias, not "${rest}"` };
    }
    if (verb === 'SHOW') {
      return rest === ''
        ? { kind: 'showSecret' }
        : { kind: 'badSecret', problem: 'SHOW SECRET takes nothing after it' };
    }
    const names = rest.split(/\s*,\s*|\s+/).filter(Boolean);
    if (names.length > 0 && names.every((n) => new RegExp(`^${NAME}$`).test(n))) return { kind: 'dropSecret', names };
    return { kind: 'badSecret', problem: 'DROP SECRET takes the aliases or secrets to drop, separated by commas' };
  }
  const use = /^USE\s+GRAPH\s+([A-Za-z_][A-Za-z0-9_]*)$/i.exec(code);
  if (use) return { kind: 'useGraph', graph: use[1]! };
  if (/^USE\s+GLOBAL$/i.test(code)) return { kind: 'useGlobal' };
  return { kind: 'other', code };
}

export const isSecretCommand = (c: GsqlCommand): boolean =>
  c.kind === 'createSecret' || c.kind === 'showSecret' || c.kind === 'dropSecret' || c.kind === 'badSecret';
