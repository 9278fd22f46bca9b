import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { resultOf, type ApiResponse } from '../../client/index.js';
import { contextOf, type Context } from '../context.js';
import { exitCodes, UsageError } from '../exit-codes.js';
import { parseDuration, progress, readAgainOnLoss } from '../follow.js';
import { render } from '../output.js';
import { findBackup, findDatabaseAnywhere, findWorkgroup, findWorkspace } from '../resolve.js';

/** The kinds of resource `acacia wait` knows. */
export const waitKinds = ['workspace', 'workgroup', 'backup', 'database', 'operation'] as const;
type Kind = (typeof waitKinds)[number];

type Row = Record<string, unknown>;

/** What `--for` asks: the resource gone, or a field equal to one of the values (ignoring case). */
export type Condition = { deleted: true } | { field: string; values: string[] };

export function parseCondition(raw: string): Condition {
  if (raw.trim().toLowerCase() === 'deleted') return { deleted: true };
  const m = /^([A-Za-z_][\w.]*)=(.+)$/.exec(raw.trim());
  if (!m)
    throw new InvalidArgumentError(
      'takes field=value (status=Active; several values: status=Active,Stopped) or deleted',
    );
  return { field: m[1]!, values: m[2]!.split(',').map((v) => v.trim()) };
}

const conditionText = (c: Condition) => ('deleted' in c ? 'deleted' : `${c.field}=${c.values.join(',')}`);

/** The value at a dotted path (`workspace_type.typeName`). */
const valueAt = (record: Row, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Row)[k] : undefined), record);

/** A resource found, and how to read it again: undefined once it is gone. */
interface Watched {
  id: string;
  read(): Promise<Row | undefined>;
}

/** The record of a read, undefined when the resource is not there (404). */
function recordOf(res: ApiResponse<unknown>): Row | undefined {
  return res.status === 404 ? undefined : (resultOf(res) as Row);
}

async function locate(
  ctx: Context,
  kind: Kind,
  value: string,
  opts: { workgroup?: string; workspace?: string },
): Promise<Watched> {
  const { client } = ctx;
  switch (kind) {
    case 'workspace': {
      const { workgroupId, workspaceId } = await findWorkspace(client, value, opts.workgroup);
      return { id: workspaceId, read: async () => recordOf(await client.workspaces.get(workgroupId, workspaceId)) };
    }
    case 'workgroup': {
      const id = (await findWorkgroup(client, value)).workgroup_id;
      return { id, read: async () => recordOf(await client.workgroups.get(id)) };
    }
    case 'backup': {
      const place = opts.workspace ? await findWorkspace(client, opts.workspace, opts.workgroup) : undefined;
      const found = await findBackup(client, value, place);
      const id = found.backup.id;
      return {
        id,
        read: async () => {
          const res = await client.backups.list(found.workgroupId, found.workspaceId);
          return (recordOf(res) as unknown as Row[] | undefined)?.find((b) => b.id === id);
        },
      };
    }
    case 'database': {
      const { workgroupId, databaseId } = await findDatabaseAnywhere(client, value, opts.workgroup);
      return { id: databaseId, read: async () => recordOf(await client.databases.get(workgroupId, databaseId)) };
    }
    case 'operation':
      return { id: value, read: async () => recordOf(await client.operations.get(value)) };
  }
}

/** A record ended where the condition can no longer come true by itself: a failed change. */
function failedState(record: Row): string | undefined {
  if (record.status === 'Failed') return `status Failed${record.err_message ? `: ${String(record.err_message)}` : ''}`;
  if (record.state === 'failed') return `state failed${record.error ? `: ${String(record.error)}` : ''}`;
  return undefined;
}

/** Following a stream, the record is read again this long after the last event anyway. */
const RECHECK_MS = 30_000;

/**
 * Waits until the resource meets the condition: reads it, then reads it again at each of its
 * events (the server's stream, resumed after a reconnect), or every so often (100 ms growing
 * to 2 s) when there is no stream. Real time bounds it, as the condition is a real one.
 */
async function waitUntil(ctx: Context, kind: Kind, value: string, opts: WaitOptions): Promise<void> {
  const condition = opts.for;
  const label = `${kind} ${value}`;
  const deadline = Date.now() + opts.timeout;
  let watched: Watched;
  try {
    watched = await locate(ctx, kind, value, opts);
  } catch (err) {
    // Nothing by that name is what `--for deleted` waits for.
    if ('deleted' in condition && err instanceof UsageError && err.code === exitCodes['Not-Found']) {
      ctx.note(`${label}: deleted`);
      return;
    }
    throw err;
  }
  const shown = progress(ctx, label);
  let state = 'waiting';
  const describe = (r: Row | undefined) => {
    if (r === undefined) return 'gone';
    if (!('deleted' in condition)) return `${condition.field}=${String(valueAt(r, condition.field) ?? '')}`;
    return r.status !== undefined
      ? `status ${String(r.status)}`
      : r.state !== undefined
        ? `state ${String(r.state)}`
        : 'present';
  };
  let stream = await ctx.client.openEvents(watched.id).catch(() => undefined);
  let interval = 100;
  let reads = 0;
  try {
    for (;;) {
      const record = await readAgainOnLoss(
        watched.read,
        (lost) => shown.update(lost ? 'connection lost, reconnecting' : state),
        Math.max(deadline - Date.now(), 0),
      );
      shown.update((state = describe(record)));
      const first = reads++ === 0;
      if ('deleted' in condition) {
        if (record === undefined) {
          shown.end('deleted');
          return;
        }
      } else if (record === undefined && first) {
        shown.end('not found');
        throw new UsageError(`no ${kind} "${value}"`, exitCodes['Not-Found']);
      } else if (record === undefined) {
        shown.end('gone');
        throw new UsageError(`${label} is gone: it cannot reach ${conditionText(condition)}`, exitCodes.waitFailed);
      } else {
        if (!(condition.field.split('.')[0]! in record))
          throw new UsageError(
            `a ${kind} has no field "${condition.field}"; it has: ${Object.keys(record).join(', ')}`,
          );
        const current = String(valueAt(record, condition.field) ?? '').toLowerCase();
        if (condition.values.some((v) => v.toLowerCase() === current)) {
          shown.end(state);
          return render(ctx, record, { id: () => watched.id, columns: [] });
        }
        const failed = failedState(record);
        if (failed) {
          shown.end('failed');
          throw new UsageError(`${label} ended ${failed}`, exitCodes.waitFailed);
        }
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        shown.end('still going');
        throw new UsageError(
          `timed out after ${durationText(opts.timeout)} waiting for ${label} to be ${conditionText(condition)} ` +
            `(last seen: ${state})`,
          exitCodes.waitTimeout,
        );
      }
      if (stream) {
        if ((await stream.next(Math.min(left, RECHECK_MS))) !== 'closed') continue;
        // The stream ended (the server restarted, say): resume after its last event, read again.
        const after = stream.lastEventId;
        stream.close();
        stream = await ctx.client.openEvents(watched.id, after).catch(() => undefined);
      } else {
        await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
        interval = Math.min(interval * 1.5, 2000);
      }
    }
  } finally {
    stream?.close();
  }
}

/** A duration as --timeout takes it: 10m, 90s, 1500ms. */
export function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

interface WaitOptions {
  for: Condition;
  timeout: number;
  workgroup?: string;
  workspace?: string;
}

export function waitCommand(program: Command): void {
  program
    .command('wait')
    .description('Wait until a resource meets a condition: acacia wait workspace analytics --for status=Active')
    .addArgument(new Argument('<kind>', 'what to wait for').choices(waitKinds))
    .argument('<name>', 'its name or id (a backup: its id or tag; an operation: its id)')
    .requiredOption(
      '--for <condition>',
      'field=value (several values: status=Active,Stopped), or deleted',
      (raw: string) => parseCondition(raw),
    )
    .addOption(
      new Option('--timeout <duration>', 'give up after this long (90s, 10m, 1h): exit status 12')
        .default(600_000, '10m')
        .argParser(parseDuration),
    )
    .option('-g, --workgroup <workgroup>', 'the workgroup a workspace or database is looked for in')
    .option('-w, --workspace <workspace>', 'the workspace a backup is looked for in (default: every one)')
    .action(async (kind: Kind, name: string, opts: WaitOptions, command: Command) => {
      await waitUntil(contextOf(command), kind, name, opts);
    });
}
