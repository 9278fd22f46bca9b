import { lex, type Token } from '../dataplane/gsql-lexer.js';
import { parseSecretStatement, type GatewayStatement } from '../dataplane/gsql-secret-statements.js';
import { statementTokens } from '../dataplane/gsql-split.js';

/**
 * Just enough GSQL to find the secret statements in a request: where statements end, and
 * what `CREATE|SHOW|DROP SECRET` and the statements that change the scope say. Everything
 * else is the workspace's to parse; this cuts the text where the data plane would and reads
 * each statement's tokens, all with the data plane's own front end (lexer, splitter,
 * gsql-secret-statements.ts).
 */

export interface GsqlStatement {
  /** The statement as sent, with the separator and blank space or comments after it. */
  text: string;
  /** Its words with comments removed, whitespace collapsed, no trailing `;`. */
  code: string;
}

/** A statement with what it is to the gateway, read from its tokens by the data plane's front end. */
export interface ReadStatement extends GsqlStatement {
  command: GsqlCommand;
}

export type GsqlCommand = Exclude<GatewayStatement, { kind: 'other' }> | { kind: 'other'; code: string };

/** One more than the longest statement the gateway follows (`SET exit_on_error = FALSE`) is long. */
const KEPT_TOKENS = 5;
const isSecretWord = (t: Token | undefined) => t?.kind === 'word' && /^SECRETS?$/i.test(t.text);

const commandOf = (tokens: readonly Token[], code: string): GsqlCommand => {
  const statement = parseSecretStatement(tokens);
  return statement.kind === 'other' ? { kind: 'other', code } : statement;
};

/**
 * Characters read between two pauses of readStatementsPausing: 64 KiB of dense tokens (a
 * bracket and a line break in turn) take about 15 ms on a quiet machine, so a megabyte of GSQL
 * never holds the gateway's other requests for long, however loaded the machine is.
 */
const CHARS_PER_SLICE = 64 * 1024;

/**
 * Reads the statements of a GSQL request, yielding at the first token past every
 * CHARS_PER_SLICE characters so that a caller may let other work run between slices. (Line
 * breaks the splitter swallows are no tokens to it; a run of them, cheap to read, is paused
 * after.) One pass over the text.
 */
function* scanStatements(text: string): Generator<void, ReadStatement[], undefined> {
  const spans: { start: number; end: number; code: string; tokens: Token[] }[] = [];
  let start = 0;
  /** The statement's code so far: runs of adjacent tokens as written, a space where blanks or comments parted them. */
  const pieces: string[] = [];
  let tokens: Token[] = [];
  let runStart = -1;
  let runEnd = 0;
  let sliceEnd = CHARS_PER_SLICE;
  for (const t of statementTokens(lex(text, { lenient: true }))) {
    if (t.start >= sliceEnd) {
      sliceEnd = t.start + CHARS_PER_SLICE;
      yield;
    }
    if (t.kind !== 'break' && t.kind !== 'end') {
      // A statement is told apart by its first words; only a secret statement is read whole.
      if (tokens.length < KEPT_TOKENS || isSecretWord(tokens[1])) tokens.push(t);
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
      else if (end > start) spans.push({ start, end, code: '', tokens: [] });
    } else {
      pieces.push(text.slice(runStart, runEnd));
      spans.push({ start, end, code: pieces.join('').replace(/\s+/g, ' ').trim(), tokens });
      pieces.length = 0;
      tokens = [];
      runStart = -1;
    }
    start = end;
  }
  return spans.map((s) => ({ text: text.slice(s.start, s.end), code: s.code, command: commandOf(s.tokens, s.code) }));
}

/** The statements of a GSQL request (splitStatements), each with what it is to the gateway. */
export function readStatements(text: string): ReadStatement[] {
  const scan = scanStatements(text);
  for (;;) {
    const step = scan.next();
    if (step.done) return step.value;
  }
}

/** readStatements, letting the event loop serve other requests between slices of a large text. */
export async function readStatementsPausing(text: string): Promise<ReadStatement[]> {
  const scan = scanStatements(text);
  for (;;) {
    const step = scan.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * Cuts a GSQL request into statements where the data plane's splitter ends them, keeping
 * every character: text the data plane would refuse (an unterminated string) is cut all the
 * same and passed on as sent. One pass over the text.
 */
export const splitStatements = (text: string): GsqlStatement[] =>
  readStatements(text).map(({ text: sent, code }) => ({ text: sent, code }));

/** What one statement's code is, as far as the gateway cares. */
export function classify(code: string): GsqlCommand {
  const tokens = [...lex(code, { lenient: true })].filter((t) => t.kind !== 'newline' && t.kind !== 'end');
  return commandOf(tokens, code);
}

export const isSecretCommand = (c: GsqlCommand): boolean =>
  c.kind === 'createSecret' || c.kind === 'showSecret' || c.kind === 'dropSecret' || c.kind === 'badSecret';
