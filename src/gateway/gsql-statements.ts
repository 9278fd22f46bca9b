import { lex } from '../dataplane/gsql-lexer.js';
import { statementTokens } from '../dataplane/gsql-split.js';

/**
 * Just enough GSQL to find the secret statements in a request: where statements end, and
 * what `CREATE|SHOW|DROP SECRET`, `USE GRAPH` and `USE GLOBAL` say. Everything else is the
 * workspace's to parse; this only has to cut the text where the data plane would, so it cuts
 * with the data plane's own lexer and splitter.
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

/**
 * Cuts a GSQL request into statements where the data plane's splitter ends them, keeping
 * every character: text the data plane would refuse (an unterminated string) is cut all the
 * same and passed on as sent. One pass over the text.
 */
export function splitStatements(text: string): GsqlStatement[] {
  const spans: { start: number; end: number; code: string }[] = [];
  let start = 0;
  /** The statement's code so far: runs of adjacent tokens as written, a space where blanks or comments parted them. */
  const pieces: string[] = [];
  let runStart = -1;
  let runEnd = 0;
  for (const t of statementTokens(lex(text, { lenient: true }))) {
    if (t.kind !== 'break' && t.kind !== 'end') {
      if (runStart < 0) runStart = t.start;
      else if (t.start > runEnd) {
        pieces.push(text.slice(runStart, runEnd), ' ');
        runStart = t.start;
      }
      runEnd = t.end;
      continue;
    }
    const end = t.kind === 'end' ? text.length : t.end;
    const last = spans.at(-1);
    if (runStart < 0) {
      // Blank space and comments belong to the statement before them.
      if (last) last.end = end;
      else if (end > start) spans.push({ start, end, code: '' });
    } else {
      pieces.push(text.slice(runStart, runEnd));
      spans.push({ start, end, code: pieces.join('').replace(/\s+/g, ' ').trim() });
      pieces.length = 0;
      runStart = -1;
    }
    start = end;
  }
  return spans.map((s) => ({ text: text.slice(s.start, s.end), code: s.code }));
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
