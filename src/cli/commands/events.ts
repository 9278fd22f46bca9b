import { Option, type Command } from 'commander';
import { stringify as toYaml } from 'yaml';
import { isConnectionLoss, resultOf, type EventRecord, type EventStreamReader } from '../../client/index.js';
import { apiGroup } from '../api-command.js';
import { contextOf, type Context } from '../context.js';
import { exitCodes, UsageError } from '../exit-codes.js';
import { parseDuration, RECONNECT_MS } from '../follow.js';
import type { View } from '../output.js';
import { findWorkgroup } from '../resolve.js';
import { durationText } from './wait.js';

const view: View = {
  id: (e) => String(e.event_id),
  columns: [
    ['EVENT_ID', (e) => String(e.event_id)],
    ['TIME', (e) => e.time],
    ['TYPE', (e) => e.type],
    ['RESOURCE_ID', (e) => e.resource_id],
    ['WORKGROUP_ID', (e) => e.workgroup_id],
  ],
};

/** The widths a followed event's columns are padded to (ids are UUIDs, times RFC 3339 to the second). */
const WIDTHS = [8, 20, 24, 36];

/** One line per event, as `-o` asks: JSON lines, a YAML document each, ids only, or table-ish text. */
function eventLine(ctx: Context, event: EventRecord): string {
  if (ctx.quiet) return String(event.event_id);
  if (ctx.format === 'json') return JSON.stringify(event);
  if (ctx.format === 'yaml') return `---\n${toYaml(event)}`;
  const cells = view.columns.map(([, value]) => String(value(event as never) ?? ''));
  return cells
    .map((c, i) => (i < WIDTHS.length ? c.padEnd(WIDTHS[i]!) : c))
    .join('  ')
    .trimEnd();
}

interface FollowOptions {
  resourceId?: string;
  workgroup?: string;
  type?: string;
  since?: string;
  until?: string;
  timeout?: number;
}

/**
 * Prints the organisation's events as they come, from the server's stream, until Ctrl-C, an
 * event of an `--until` type, or `--timeout`. A stream that ends (a server restart, a network
 * drop) is opened again after the last event printed (Last-Event-ID): nothing is lost or
 * printed twice. The server unreachable for RECONNECT_MS ends it (exit status 3).
 */
async function followEvents(ctx: Context, opts: FollowOptions): Promise<void> {
  const filters = {
    ...(opts.resourceId ? { resource_id: opts.resourceId } : {}),
    ...(opts.workgroup ? { workgroup_id: (await findWorkgroup(ctx.client, opts.workgroup)).workgroup_id } : {}),
    ...(opts.type ? { type: opts.type } : {}),
  };
  const until = opts.until?.split(',').map((t) => t.trim());
  const deadline = opts.timeout === undefined ? Infinity : Date.now() + opts.timeout;
  let lastEventId = opts.since;
  let stream: EventStreamReader | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    stream?.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (!ctx.quiet && ctx.format === 'table' && process.stdout.isTTY)
    ctx.out(view.columns.map(([h], i) => (i < WIDTHS.length ? h.padEnd(WIDTHS[i]!) : h)).join('  '));
  let lostSince: number | undefined;
  let backoff = 100;
  try {
    while (!stopped) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      if (!stream) {
        try {
          stream = await ctx.client.streamEvents(filters, lastEventId);
        } catch (err) {
          if (!isConnectionLoss(err)) throw err;
          lostSince ??= Date.now();
          if (Date.now() - lostSince >= RECONNECT_MS) throw err;
          await new Promise((resolve) => setTimeout(resolve, Math.min(backoff, left)));
          backoff = Math.min(backoff * 2, 2000);
          continue;
        }
        // No stream: the same filters as a page say why (a refused key, a bad filter) as usual.
        if (!stream) {
          const since = lastEventId === undefined ? {} : { since: lastEventId };
          resultOf(await ctx.client.events.list({ ...filters, ...since, limit: 1 } as never));
          throw new UsageError('the server answered without an event stream', exitCodes.failure);
        }
        if (lostSince !== undefined) ctx.note('reconnected');
        lostSince = undefined;
      }
      const got = await stream.next(Math.min(left, 60_000));
      for (const message of stream.take()) {
        // The server's last word on a stream it ends (the key revoked): said, then reconnect.
        if (message.event === 'error') {
          ctx.note(`the stream ended: ${message.data}`);
          continue;
        }
        const event = JSON.parse(message.data) as EventRecord;
        ctx.out(eventLine(ctx, event));
        lastEventId = message.id ?? lastEventId;
        backoff = 100;
        if (until?.includes(event.type)) return;
      }
      if (got === 'closed' && !stopped) {
        lastEventId = stream.lastEventId ?? lastEventId;
        stream.close();
        stream = undefined;
        lostSince ??= Date.now();
        ctx.note('connection lost, reconnecting');
        await new Promise((resolve) => setTimeout(resolve, Math.min(backoff, Math.max(left, 0))));
        backoff = Math.min(backoff * 2, 2000);
      }
    }
  } finally {
    stream?.close();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  if (until && !stopped)
    throw new UsageError(
      `timed out after ${durationText(opts.timeout!)} waiting for an event of type ${until.join(' or ')}`,
      exitCodes.waitTimeout,
    );
}

export function eventCommands(program: Command): void {
  const group = apiGroup(
    program,
    'events',
    "The organisation's changes: a page at a time, or followed as they happen (docs/events.md)",
    [{ verb: 'list', endpoint: 'listEvents', aliases: ['ls'] }],
    view,
  ).alias('event');
  // A page ends; a stream does not: following is `events follow`'s, which prints as it reads.
  group.commands
    .find((c) => c.name() === 'list')!
    .hook('preAction', (_group, action) => {
      if (action.opts<{ format?: string }>().format === 'sse')
        throw new UsageError('events list prints pages (--format json); to follow the stream: acacia events follow');
    });
  group
    .command('follow')
    .description('Print events as they happen, one a line (JSON lines with -o json), until Ctrl-C')
    .option('--resource-id <id>', 'only the events of this resource')
    .option('-g, --workgroup <workgroup>', 'only the events of this workgroup (id or name)')
    .option('--type <types>', 'only these event types (comma-separated)')
    .option('--since <event_id>', 'start right after this event (default: with the next event)')
    .option('--until <types>', 'end after printing an event of one of these types (comma-separated)')
    .addOption(
      new Option('--timeout <duration>', 'end after this long (with --until: exit status 12)').argParser(parseDuration),
    )
    .action(async (opts: FollowOptions, command: Command) => {
      await followEvents(contextOf(command), opts);
    });
}
