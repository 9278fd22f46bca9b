import { Readable } from 'node:stream';
import type { DbIdentity } from '../domain/db-credentials.js';
import { AppError } from '../domain/errors.js';
import { TEXT_HEADERS, type HandshakeContext, type HandshakeRoute } from './handshake.js';
import { isSecretCommand, readStatementsPausing, type GsqlCommand, type GsqlStatement } from './gsql-statements.js';
import { refusalMessage } from './refusals.js';
import type { BackendResponse } from './workspace-backend.js';

/**
 * GSQL requests (`POST /gsql/v1/statements`, and `/gsqlserver/gsql/file` with the text
 * form-encoded, as TigerGraph 3.x takes it) with `CREATE SECRET`, `SHOW SECRET` or
 * `DROP SECRET` in them: the gateway runs those statements itself, in order, and passes the
 * others on to the workspace backend. A request without them goes on untouched.
 */

/** GSQL's client exit codes, printed last when a request fails. */
const SYNTAX_ERROR = 211;
const RUNTIME_ERROR = 212;

interface Step {
  lines: string[];
  ok: boolean;
}

const FORM_PATH = '/gsqlserver/gsql/file';

function decodeForm(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

const encodeForm = (text: string): string => encodeURIComponent(text).replace(/%20/g, '+');

/** The text of a secret statement's answer, in the words GSQL (and pyTigerGraph's parsers) use. */
async function runSecretCommand(ctx: HandshakeContext, identity: DbIdentity, command: GsqlCommand): Promise<Step> {
  const secrets = ctx.services.dbSecrets;
  try {
    switch (command.kind) {
      case 'createSecret': {
        const created = await secrets.create(identity, command.alias);
        return {
          ok: true,
          lines: [`The secret: ${created.secret} has been created for user "${identity.username}".`],
        };
      }
      case 'showSecret': {
        const list = await secrets.list(identity);
        if (list.length === 0) return { ok: true, lines: [`User "${identity.username}" has no secrets.`] };
        return { ok: true, lines: list.flatMap((s) => [`- Secret: ${s.masked}`, `  - Alias: ${s.alias}`]) };
      }
      case 'dropSecret': {
        const { dropped, missing } = await secrets.drop(identity, command.names);
        const lines = dropped.length ? [`Successfully dropped secrets: [${dropped.join(', ')}].`] : [];
        if (missing.length === 0) return { ok: true, lines };
        lines.push(
          `Failed to drop secrets: [${missing.join(', ')}]: ` +
            `user "${identity.username}" has no secret or alias by that name.`,
        );
        return { ok: false, lines };
      }
      case 'badSecret':
        return { ok: false, lines: [`Syntax Error: ${command.problem}.`] };
      default:
        return { ok: true, lines: [] };
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { ok: false, lines: [`Semantic Check Fails: ${refusalMessage(err)}`] };
  }
}

async function bodyText(response: BackendResponse): Promise<string> {
  const { body } = response;
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (body instanceof Readable) {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  return JSON.stringify(body);
}

/** What the statements run so far leave to the next ones. */
interface Session {
  graph: string | undefined;
  /** GSQL's `exit_on_error`: when false, a failed statement does not stop the ones after it. */
  exitOnError: boolean;
}

const RETURN_CODE = '__GSQL__RETURN__CODE__,';

/**
 * Runs consecutive statements that are not the gateway's on the backend, in the session
 * reached so far: the scope as `?graph=`; `exit_on_error = FALSE` set again before the text,
 * since each backend run is a session of its own (the setting prints nothing).
 */
async function runOnBackend(ctx: HandshakeContext, text: string, session: Session): Promise<Step> {
  const query = new URLSearchParams(ctx.query);
  if (session.graph === undefined) query.delete('graph');
  else query.set('graph', session.graph);
  const sent = session.exitOnError ? text : `SET exit_on_error = FALSE\n${text}`;
  const response = await ctx.forward({
    ...ctx.backendRequest,
    query: query.toString(),
    body: Buffer.from(ctx.path === FORM_PATH ? encodeForm(sent) : sent, 'utf8'),
  });
  const output = await bodyText(response);
  if (response.status === 200) {
    const lines = output.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);
    return { lines, ok: !lines.some((l) => l.startsWith(RETURN_CODE)) };
  }
  // A refusal in JSON (the simulated driver's, a data plane's): reported as GSQL reports a failure.
  let message = output;
  try {
    const parsed = JSON.parse(output) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // not JSON: the text as it is
  }
  return { ok: false, lines: [`Semantic Check Fails: ${message}`, `${RETURN_CODE}${RUNTIME_ERROR}`] };
}

/** The graph scope after a statement the backend ran successfully. */
function scopeAfter(command: GsqlCommand, graph: string | undefined): string | undefined {
  switch (command.kind) {
    case 'useGraph':
    case 'createGraph':
      return command.graph;
    case 'useGlobal':
    case 'dropAll':
      return undefined;
    case 'dropGraph':
      return command.graph === graph ? undefined : graph;
    default:
      return graph;
  }
}

async function runRequest(ctx: HandshakeContext, statements: GsqlStatement[], commands: GsqlCommand[]): Promise<Step> {
  const identity = ctx.identity!;
  const out: string[] = [];
  // One line at a time: spread into push's arguments, an answer of a few hundred thousand
  // lines would overflow the call stack.
  const append = (lines: string[]) => {
    for (const line of lines) out.push(line);
  };
  const session: Session = { graph: ctx.query.get('graph') ?? undefined, exitOnError: true };
  /** A statement failed while exit_on_error was off: the request still fails, at its end. */
  let failed = false;
  // Only secret and scope statements: the gateway answers all of it. The scope does not
  // matter to a secret (they belong to the user, not to a graph), so the graph is not checked.
  const ownOnly = commands.every(
    (c) => isSecretCommand(c) || c.kind === 'useGraph' || c.kind === 'useGlobal' || c.kind === 'blank',
  );
  let pending: number[] = [];
  const flush = async (): Promise<boolean> => {
    if (pending.length === 0) return true;
    const text = pending.map((i) => statements[i]!.text).join('');
    const step = await runOnBackend(ctx, text, session);
    // Followed whether or not the run failed: it stops only where exit_on_error was on, and
    // then nothing runs after it.
    for (const i of pending) {
      const command = commands[i]!;
      session.graph = scopeAfter(command, session.graph);
      if (command.kind === 'exitOnError') session.exitOnError = command.exit;
    }
    pending = [];
    if (step.ok || session.exitOnError) {
      append(step.lines);
      return step.ok;
    }
    // Going on: the run's own closing return code is given once, at the end of the request.
    append(step.lines.filter((l) => !l.startsWith(RETURN_CODE)));
    failed = true;
    return true;
  };
  for (let i = 0; i < commands.length; i++) {
    const command = commands[i]!;
    if (ownOnly && (command.kind === 'useGraph' || command.kind === 'useGlobal')) {
      session.graph = scopeAfter(command, session.graph);
      out.push(command.kind === 'useGraph' ? `Using graph '${command.graph}'` : 'Using global scope.');
      continue;
    }
    if (!isSecretCommand(command)) {
      pending.push(i);
      continue;
    }
    if (!(await flush())) return { ok: false, lines: out };
    const step = await runSecretCommand(ctx, identity, command);
    append(step.lines);
    if (!step.ok) {
      if (!session.exitOnError && command.kind !== 'badSecret') {
        failed = true;
        continue;
      }
      out.push(`${RETURN_CODE}${command.kind === 'badSecret' ? SYNTAX_ERROR : RUNTIME_ERROR}`);
      return { ok: false, lines: out };
    }
  }
  const ok = (await flush()) && !failed;
  if (failed) out.push(`${RETURN_CODE}${RUNTIME_ERROR}`);
  return { ok, lines: out };
}

export const gsqlRoute: HandshakeRoute = {
  methods: ['POST'],
  passOtherMethods: true,
  async handler(ctx) {
    const raw = ctx.body?.toString('utf8') ?? '';
    const text = ctx.path === FORM_PATH ? decodeForm(raw) : raw;
    const statements = text === undefined ? [] : await readStatementsPausing(text);
    const commands = statements.map((s) => s.command);
    if (!commands.some(isSecretCommand)) return ctx.forward(ctx.backendRequest);
    const result = await runRequest(ctx, statements, commands);
    return { status: 200, headers: TEXT_HEADERS, body: result.lines.join('\n') };
  },
};
