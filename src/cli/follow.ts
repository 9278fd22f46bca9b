import { InvalidArgumentError } from 'commander';
import {
  AcaciaOperationFailedError,
  AcaciaWaitTimeoutError,
  AcaciaWorkspaceFailedError,
  isConnectionLoss,
  resultOf,
  type BackupRecord,
  type CloudProviderRecord,
  type OperationRecord,
  type WorkspaceRecord,
} from '../client/index.js';
import type { Follow } from '../schemas/endpoints/index.js';
import type { Context } from './context.js';
import { UsageError } from './exit-codes.js';

/** `--timeout 90s`, `10m`, `1h` or a number of seconds, as milliseconds. */
export function parseDuration(raw: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!m) throw new InvalidArgumentError('takes a duration such as 90s, 10m or 1h');
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's']!;
  return Math.round(Number(m[1]) * unit);
}

/** The progress a wait shows when its connection is lost, and again when it is back. */
const onConnectionLost = (shown: ReturnType<typeof progress>, state: () => string) => (lost: boolean) =>
  shown.update(lost ? 'connection lost, reconnecting' : state());

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Shows the state of what is followed as it moves: on a terminal one line redrawn with a
 * spinner and the time so far; otherwise one plain line per change, for logs.
 */
export function progress(ctx: Context, label: string) {
  const started = Date.now();
  let state = 'waiting';
  let printed: string | undefined;
  let frame = 0;
  const draw = () => {
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stderr.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${label}: ${state} (${seconds}s)`);
  };
  const timer = ctx.interactive ? setInterval(draw, 100) : undefined;
  return {
    update(next: string) {
      state = next;
      if (!ctx.interactive && next !== printed) {
        printed = next;
        ctx.note(`${label}: ${next}`);
      }
    },
    end(final: string) {
      if (timer) {
        clearInterval(timer);
        process.stderr.write('\r\x1b[K');
      }
      ctx.note(`${label}: ${final}`);
    },
  };
}

/** How a wait that threw ended: only a change that failed is said to have failed. */
const endState = (err: unknown) =>
  err instanceof AcaciaWaitTimeoutError
    ? 'still going'
    : err instanceof AcaciaOperationFailedError || err instanceof AcaciaWorkspaceFailedError
      ? 'failed'
      : isConnectionLoss(err)
        ? 'server unreachable; the change may go on'
        : 'not followed to its end';

const operationState = (op: OperationRecord) =>
  `${op.state}${op.attempt > 1 ? ` (attempt ${op.attempt} of ${op.max_attempts})` : ''}`;

/** How long a read in a wait is tried again while the server cannot be reached (a restart). */
export const RECONNECT_MS = 60_000;

/**
 * `read` again, backing off from 100 ms to 2 s, while the connection is what fails and for no
 * longer than RECONNECT_MS (or limitMs): a server restarting under a wait does not end it.
 */
export async function readAgainOnLoss<T>(
  read: () => Promise<T>,
  onLost?: (lost: boolean) => void,
  limitMs = RECONNECT_MS,
): Promise<T> {
  const started = Date.now();
  let interval = 100;
  let lost = false;
  for (;;) {
    try {
      const value = await read();
      if (lost) onLost?.(false);
      return value;
    } catch (err) {
      if (!isConnectionLoss(err) || Date.now() - started >= Math.min(limitMs, RECONNECT_MS)) throw err;
      if (!lost) onLost?.((lost = true));
      await new Promise((resolve) => setTimeout(resolve, interval));
      interval = Math.min(interval * 2, 2000);
    }
  }
}

/** What a change started, as far as following it needs. */
export interface Started {
  follow: Follow;
  /** The Result of the request that started it. */
  result: unknown;
  workgroupId?: string;
  workspaceId?: string;
  /** The workspace is being deleted: wait until it is gone. */
  deleting?: boolean;
}

/**
 * Follows a change to its end through the client's waitFor and answers what to show then:
 * the record as the change left it. A failed change or the timeout rejects (typed errors).
 */
export async function followChange(ctx: Context, started: Started, timeoutMs: number): Promise<unknown> {
  const { client } = ctx;
  const followOperation = async (id: string, label: string) => {
    const shown = progress(ctx, label);
    let state = 'waiting';
    try {
      const op = await client.waitFor(
        { operation: id },
        {
          timeoutMs,
          onProgress: (o) => shown.update((state = operationState(o))),
          onConnectionLost: onConnectionLost(shown, () => state),
        },
      );
      shown.end(op.state);
      return op;
    } catch (err) {
      shown.end(endState(err));
      throw err;
    }
  };
  /** The newest operation on a resource (a backup, a cloud provider): what its change runs as. */
  const operationOf = async (resourceId: string) => {
    const ops = resultOf(await readAgainOnLoss(() => client.operations.list({ resource_id: resourceId })));
    const op = ops.at(-1);
    if (!op) throw new UsageError(`no operation runs on ${resourceId}`, 1);
    return op;
  };

  switch (started.follow) {
    case 'workspace': {
      const ws = started.result as WorkspaceRecord;
      const shown = progress(ctx, `workspace ${ws.name}`);
      try {
        const target = { workgroup: ws.workgroup_id, workspace: ws.workspace_id };
        let state: string = ws.status;
        const options = {
          timeoutMs,
          onProgress: (w: WorkspaceRecord) => shown.update((state = w.status)),
          onConnectionLost: onConnectionLost(shown, () => state),
        };
        if (started.deleting) {
          await client.waitFor({ ...target, status: 'Deleted' }, options);
          shown.end('deleted');
          return ws;
        }
        const done = await client.waitFor(target, options);
        // Failed is a stable status: the wait ends there, and so does the change.
        if (done.status === 'Failed') throw new AcaciaWorkspaceFailedError(done);
        shown.end(done.status);
        return done;
      } catch (err) {
        shown.end(endState(err));
        throw err;
      }
    }
    case 'operation': {
      const id = started.result as string;
      const op = await followOperation(id, `operation ${id}`);
      return op;
    }
    case 'backup': {
      const backup = started.result as BackupRecord;
      const op = await operationOf(backup.id);
      await followOperation(op.id, `backup ${backup.id}`);
      const all = resultOf(
        await readAgainOnLoss(() => client.backups.list(started.workgroupId!, started.workspaceId!)),
      );
      return all.find((b) => b.id === backup.id) ?? backup;
    }
    case 'cloud-provider': {
      const provider = started.result as CloudProviderRecord;
      const op = await operationOf(provider.id);
      await followOperation(op.id, `cloud provider ${provider.name}`);
      return resultOf(await readAgainOnLoss(() => client.cloudProviders.get(provider.id)));
    }
  }
}
