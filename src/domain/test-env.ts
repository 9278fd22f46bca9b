/**
 * Fault injection for the simulated provisioner, from a workspace's `x_test_env`:
 * comma- or semicolon-separated directives
 *   fail:<action>            every attempt of that action fails
 *   slow:<action>=<n>[s|m|h] the action takes that long on the (manual or system) clock,
 *                            whatever ACACIA_SIM_SPEED says
 *   topology=<n>[KiB|MiB|GiB] the graph data size the simulated workspace reports
 * where <action> is create, pause, resume, resize, ha, upgrade, refresh, restore, backup or delete.
 * A BYOC cloud provider's `x_test_env` (an extension field of its create) takes the same
 * directives for provision, upgrade and validate.
 */
export interface TestEnv {
  fail: Set<string>;
  slow: Map<string, number>;
  topologyBytes?: number;
}

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, '': 1000 };
const sizes: Record<string, number> = { '': 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

export function parseTestEnv(text: string | null | undefined): TestEnv {
  const env: TestEnv = { fail: new Set(), slow: new Map() };
  for (const part of (text ?? '').split(/[;,]/).map((s) => s.trim()).filter(Boolean)) {
    let m: RegExpExecArray | null;
    if ((m = /^fail:([a-z]+)$/i.exec(part))) env.fail.add(m[1]!.toLowerCase());
    else if ((m = /^slow:([a-z]+)=(\d+)(s|m|h)?$/i.exec(part))) env.slow.set(m[1]!.toLowerCase(), Number(m[2]) * units[(m[3] ?? '').toLowerCase()]!);
    else if ((m = /^topology=(\d+)(kib|mib|gib)?$/i.exec(part))) env.topologyBytes = Number(m[1]) * sizes[(m[2] ?? '').toLowerCase()]!;
  }
  return env;
}

export const workspaceTestActions = ['create', 'pause', 'resume', 'resize', 'ha', 'upgrade', 'refresh', 'restore', 'backup', 'delete'] as const;
export const providerTestActions = ['provision', 'upgrade', 'validate'] as const;

/**
 * The directives that do not parse or name an action the resource does not have, so a
 * request can refuse them with a clear reason (`fail:crate` must not silently do nothing).
 */
export function unknownDirectives(text: string, actions: readonly string[], opts: { topology: boolean }): string[] {
  return text
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .filter((p) => {
      const m = /^(?:fail:([a-z]+)|slow:([a-z]+)=\d+(?:s|m|h)?)$/i.exec(p);
      if (m) return !actions.includes((m[1] ?? m[2])!.toLowerCase());
      return !(opts.topology && /^topology=\d+(kib|mib|gib)?$/i.test(p));
    });
}
