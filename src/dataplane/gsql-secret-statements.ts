import type { Token } from './gsql-lexer.js';

/**
 * The statements the gateway answers or follows in a GSQL request, read from the tokens of
 * one statement (as the splitter of gsql-split.ts cuts them): `CREATE|SHOW|DROP SECRET`, which
 * the gateway runs itself, and those that change what later statements run in — `USE GRAPH`,
 * `USE GLOBAL`, `CREATE GRAPH`, `DROP ALL`, `DROP GRAPH`, `SET exit_on_error`. Everything else is the data
 * plane's to parse. One pass over the tokens.
 */
export type GatewayStatement =
  | { kind: 'createSecret'; alias: string | undefined }
  | { kind: 'showSecret' }
  | { kind: 'dropSecret'; names: string[] }
  /** A secret statement written wrong: the gateway reports it as GSQL reports a syntax error. */
  | { kind: 'badSecret'; problem: string }
  | { kind: 'useGraph'; graph: string }
  | { kind: 'useGlobal' }
  | { kind: 'dropAll' }
  | { kind: 'dropGraph'; graph: string }
  /** The shell's CREATE GRAPH makes the new graph the scope of the statements after it. */
  | { kind: 'createGraph'; graph: string }
  | { kind: 'exitOnError'; exit: boolean }
  | { kind: 'blank' }
  | { kind: 'other' };

/** Aliases, and the secrets themselves (32 lower-case letters and digits), as DROP SECRET takes them. */
const NAME = /^[A-Za-z0-9_]+$/;
const GRAPH = /^[A-Za-z_][A-Za-z0-9_]*$/;

const isWord = (t: Token | undefined, word: string): boolean =>
  t !== undefined && t.kind === 'word' && t.text.toUpperCase() === word;

/**
 * Tokens as written, a space where blank space parted them: what a message quotes. A string
 * is quoted again, since its token holds its content.
 */
function written(tokens: readonly Token[]): string {
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (i > 0 && t.start > tokens[i - 1]!.end) out += ' ';
    out += t.kind === 'string' ? JSON.stringify(t.text) : t.text;
  }
  return out;
}

/**
 * Names as DROP SECRET lists them, parted by commas or blank space; undefined when anything
 * else is among them. Adjacent tokens join: a secret that starts with digits is read by the
 * lexer as a number and a word.
 */
function namesOf(tokens: readonly Token[]): string[] | undefined {
  const names: string[] = [];
  let current = '';
  let end = -1;
  for (const t of tokens) {
    if (t.kind === 'punct' && t.text === ',') {
      if (current) names.push(current);
      current = '';
      continue;
    }
    if (t.kind !== 'word' && t.kind !== 'number') return undefined;
    if (current && t.start > end) {
      names.push(current);
      current = '';
    }
    current += t.text;
    end = t.end;
  }
  if (current) names.push(current);
  return names.every((n) => NAME.test(n)) ? names : undefined;
}

/** `CREATE|SHOW|DROP SECRET[S] …`, given the tokens after SECRET. */
function secretStatement(verb: string, rest: readonly Token[]): GatewayStatement {
  if (verb === 'CREATE') {
    if (rest.length === 0) return { kind: 'createSecret', alias: undefined };
    const names = namesOf(rest);
    if (names?.length === 1 && !rest.some((t) => t.kind === 'punct')) return { kind: 'createSecret', alias: names[0] };
    return { kind: 'badSecret', problem: `CREATE SECRET takes one optional alias, not "${written(rest)}"` };
  }
  if (verb === 'SHOW')
    return rest.length === 0
      ? { kind: 'showSecret' }
      : { kind: 'badSecret', problem: 'SHOW SECRET takes nothing after it' };
  const names = namesOf(rest);
  if (names?.length) return { kind: 'dropSecret', names };
  return { kind: 'badSecret', problem: 'DROP SECRET takes the aliases or secrets to drop, separated by commas' };
}

/** What one statement is to the gateway, from its tokens (no line breaks, no statement break). */
export function parseSecretStatement(tokens: readonly Token[]): GatewayStatement {
  const [first, second, third] = tokens;
  if (!first) return { kind: 'blank' };
  if (first.kind !== 'word') return { kind: 'other' };
  const verb = first.text.toUpperCase();
  if (
    (verb === 'CREATE' || verb === 'SHOW' || verb === 'DROP') &&
    (isWord(second, 'SECRET') || isWord(second, 'SECRETS'))
  )
    return secretStatement(verb, tokens.slice(2));
  const alone = (n: number) => tokens.length === n;
  if (verb === 'CREATE' && isWord(second, 'GRAPH') && third?.kind === 'word' && GRAPH.test(third.text))
    return { kind: 'createGraph', graph: third.text };
  if (verb === 'USE') {
    if (isWord(second, 'GRAPH') && third?.kind === 'word' && GRAPH.test(third.text) && alone(3))
      return { kind: 'useGraph', graph: third.text };
    if (isWord(second, 'GLOBAL') && alone(2)) return { kind: 'useGlobal' };
  }
  if (verb === 'DROP') {
    if (isWord(second, 'ALL') && alone(2)) return { kind: 'dropAll' };
    if (isWord(second, 'GRAPH') && third && (third.kind === 'word' || third.kind === 'number'))
      return { kind: 'dropGraph', graph: third.text };
  }
  // SET exit_on_error = TRUE|FALSE, the GSQL shell's switch for going on after a failed statement.
  if (verb === 'SET' && isWord(second, 'EXIT_ON_ERROR') && tokens[2]?.text === '=' && alone(4)) {
    const value = tokens[3]!;
    const text = value.kind === 'string' || value.kind === 'word' ? value.text.toUpperCase() : '';
    if (text === 'TRUE' || text === 'FALSE') return { kind: 'exitOnError', exit: text === 'TRUE' };
  }
  return { kind: 'other' };
}
