import { accountFaultActions, workspaceFaultActions, type Action } from '../../domain/actions.js';
import type { TestEnvTarget } from '../../domain/test-env.js';

/**
 * The `x_test_env` directives: comma- or semicolon-separated
 *   fail:<action>             every attempt of that action fails (fail:observe: the runtime is
 *                             reported gone at every look, so the reconciler recovers it)
 *   slow:<action>=<n>[s|m|h]  the action is held that long on the (manual or system) clock
 *                             before the driver runs it; at most MAX_SLOW_MS
 *   topology=<n>[KiB|MiB|GiB] the graph data size a created workspace reports; at most the
 *                             largest size of the catalog holds (workspaces only)
 * A workspace's directives name its actions and its backups' (workspaceFaultActions); a BYOC
 * cloud provider's name provision, upgrade and validate.
 */
export interface Directives {
  fail: ReadonlySet<string>;
  slow: ReadonlyMap<string, number>;
  topologyBytes?: number;
}

/** The bounds a directive must keep. */
export interface DirectiveLimits {
  /** The largest graph `topology=` may report: the largest size of the catalog. */
  maxTopologyBytes: number;
}

/** The longest `slow:` delay: a day is longer than any test waits, and far from overflowing anything. */
export const MAX_SLOW_MS = 24 * 3_600_000;

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, '': 1000 };
const sizes: Record<string, number> = { '': 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

type Directive =
  | { kind: 'fail'; action: string }
  | { kind: 'slow'; action: string; ms: number }
  | { kind: 'topology'; bytes: number }
  | { kind: 'unknown' };

function read(part: string): Directive {
  let m: RegExpExecArray | null;
  if ((m = /^fail:([a-z]+)$/i.exec(part))) return { kind: 'fail', action: m[1]!.toLowerCase() };
  if ((m = /^slow:([a-z]+)=(\d+)(s|m|h)?$/i.exec(part)))
    return { kind: 'slow', action: m[1]!.toLowerCase(), ms: Number(m[2]) * units[(m[3] ?? '').toLowerCase()]! };
  if ((m = /^topology=(\d+)(kib|mib|gib)?$/i.exec(part)))
    return { kind: 'topology', bytes: Number(m[1]) * sizes[(m[2] ?? '').toLowerCase()]! };
  return { kind: 'unknown' };
}

const parts = (text: string) =>
  text
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean);

const none: Directives = { fail: new Set(), slow: new Map() };

/**
 * The directives in effect. Values out of bounds (stored before the bounds existed) are
 * ignored, so what is stored can never wedge a resource.
 */
export function parseDirectives(text: string | null | undefined, limits: DirectiveLimits): Directives {
  if (!text) return none;
  const fail = new Set<string>();
  const slow = new Map<string, number>();
  let topologyBytes: number | undefined;
  for (const part of parts(text)) {
    const d = read(part);
    if (d.kind === 'fail') fail.add(d.action);
    else if (d.kind === 'slow' && d.ms <= MAX_SLOW_MS) slow.set(d.action, d.ms);
    else if (d.kind === 'topology' && d.bytes <= limits.maxTopologyBytes) topologyBytes = d.bytes;
  }
  return { fail, slow, ...(topologyBytes !== undefined ? { topologyBytes } : {}) };
}

const actionsOf: Record<TestEnvTarget, readonly Action[]> = {
  workspace: workspaceFaultActions,
  cloud_provider: accountFaultActions,
};

/**
 * Why a text is refused: directives that do not parse, name an action the resource does
 * not have (`fail:crate` must not silently do nothing) or exceed their bound.
 */
export function directiveProblems(text: string, target: TestEnvTarget, limits: DirectiveLimits): string[] {
  const actions: readonly string[] = actionsOf[target];
  const topology = target === 'workspace';
  const unknown: string[] = [];
  const tooLarge: string[] = [];
  for (const part of parts(text)) {
    const d = read(part);
    if ((d.kind === 'fail' || d.kind === 'slow') && !actions.includes(d.action)) unknown.push(part);
    else if (d.kind === 'unknown' || (d.kind === 'topology' && !topology)) unknown.push(part);
    else if (d.kind === 'slow' && d.ms > MAX_SLOW_MS) tooLarge.push(part);
    else if (d.kind === 'topology' && d.bytes > limits.maxTopologyBytes) tooLarge.push(part);
  }
  const problems: string[] = [];
  if (unknown.length > 0) {
    const forms = topology
      ? 'fail:<action>, slow:<action>=<n>[s|m|h] or topology=<n>[KiB|MiB|GiB]'
      : 'fail:<action> or slow:<action>=<n>[s|m|h]';
    problems.push(`unknown directives: ${unknown.join(', ')}; use ${forms} with an action of ${actions.join(', ')}`);
  }
  if (tooLarge.length > 0) {
    const bounds = topology
      ? `slow: at most 24h, topology: at most ${limits.maxTopologyBytes} bytes (the largest size's graph)`
      : 'slow: at most 24h';
    problems.push(`out of bounds: ${tooLarge.join(', ')}; ${bounds}`);
  }
  return problems;
}
