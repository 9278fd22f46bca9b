import {
  AcaciaApiError,
  AcaciaOperationFailedError,
  AcaciaWaitTimeoutError,
  AcaciaWorkspaceFailedError,
  type WaitTarget,
} from '../client/index.js';
import { stableStatuses } from '../schemas/vocabulary.js';
import type { ErrorDetail } from '../schemas/envelope.js';

/** A command used wrongly (a missing or contradictory flag, a name that matches nothing usable). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code: number = exitCodes.usage,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * The exit status of every way a command can end, one per error Type of the API's envelope,
 * so a script can tell them apart without reading the message. Documented in docs/cli.md.
 */
export const exitCodes = {
  ok: 0,
  /** Anything else: an unexpected failure. */
  failure: 1,
  /** The command line is wrong: unknown command or flag, a missing argument, a bad setting. */
  usage: 2,
  /** The server could not be reached (refused, unknown host, reset). */
  unreachable: 3,
  'Bad-Request': 4,
  Unauthorized: 5,
  Forbidden: 6,
  'Not-Found': 7,
  'Quota-Exceed': 8,
  'API-Disabled': 9,
  'Internal-Error': 10,
  /** `--wait`: the change ended failed (the operation failed, or the workspace is Failed). */
  waitFailed: 11,
  /** `--wait`: `--timeout` passed before the change ended. */
  waitTimeout: 12,
  /** `status`: no server answers; `stop`: no server of the data directory runs. */
  down: 13,
  /** `serve --detach`: a server of the data directory runs already. */
  running: 14,
} as const;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** The code of a network failure (undici wraps it as the cause), or undefined. */
function networkCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as never, i++) {
    if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return e.code;
    if (typeof e.code === 'string' && e.code.startsWith('UND_ERR_CONNECT')) return e.code;
  }
  return undefined;
}

/** The `acacia wait` that goes on waiting for what a `--wait` was waiting for. */
export function waitCommandFor(target: WaitTarget): string {
  if ('operation' in target) return `acacia wait operation ${target.operation} --for state=succeeded`;
  const wanted: string[] = target.status === undefined ? [...stableStatuses] : [target.status].flat();
  const condition = wanted.includes('Deleted') ? 'deleted' : `status=${wanted.join(',')}`;
  return `acacia wait workspace ${target.workspace} -g ${target.workgroup} --for ${condition}`;
}

export interface Failure {
  code: number;
  lines: string[];
  /** Nothing here explains it: a bug, worth its stack trace. */
  unexpected?: boolean;
}

/** The lines to print and the exit status for an error a command ended with. */
export function describeFailure(err: unknown, target?: { url: string; hasKey: boolean }): Failure {
  if (err instanceof UsageError) return { code: err.code, lines: [`error: ${err.message}`] };
  if (err instanceof AcaciaApiError) {
    const body = err.response.body as { ErrorDetails?: ErrorDetail[]; RequestID?: string } | undefined;
    const details = body?.ErrorDetails ?? [];
    if (details.length === 0)
      return { code: exitCodes.failure, lines: [`error: HTTP ${err.response.status} without an error envelope`] };
    const type = details[0]!.Type as keyof typeof exitCodes;
    const lines = details.map(
      (d) => `error: ${d.Type}: ${d.FieldName ? `${d.FieldName}: ` : ''}${d.Reason} (HTTP ${err.response.status})`,
    );
    if (body?.RequestID) lines.push(`request id: ${body.RequestID}`);
    if (type === 'Unauthorized' && target && !target.hasKey)
      lines.push('no API key was given: use --api-key, ACACIA_API_KEY or a profile (acacia config set)');
    return { code: exitCodes[type] ?? exitCodes.failure, lines };
  }
  if (err instanceof AcaciaOperationFailedError || err instanceof AcaciaWorkspaceFailedError)
    return { code: exitCodes.waitFailed, lines: [`error: ${err.message}`] };
  if (err instanceof AcaciaWaitTimeoutError)
    return {
      code: exitCodes.waitTimeout,
      lines: [`error: ${err.message}; it goes on: wait on with ${waitCommandFor(err.target)}`],
    };
  const network = networkCode(err);
  if (network)
    return {
      code: exitCodes.unreachable,
      lines: [
        `error: cannot reach ${target?.url ?? 'the server'} (${network}): is the server running? ` +
          'Set the address with --url, ACACIA_URL or a profile (acacia config set).',
      ],
    };
  return { code: exitCodes.failure, lines: [`error: ${(err as Error)?.message ?? String(err)}`], unexpected: true };
}
