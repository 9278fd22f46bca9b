import type { Problems } from './errors.js';

/** The resources that take an `x_test_env`. */
export type TestEnvTarget = 'workspace' | 'cloud_provider';

/**
 * Whether an `x_test_env` text (fault-injection directives) is acceptable. The domain only
 * stores the text; parsing it, bounding it and applying it belong to fault injection
 * (src/engine/fault-injection/), which answers through this interface.
 */
export interface TestEnvCheck {
  /** Why the text is refused for that kind of resource; empty when it is acceptable. */
  problems(text: string, target: TestEnvTarget): string[];
}

/** Where fault injection is not wired (the CLI, a server with it off): every directive is refused. */
export const faultInjectionOff: TestEnvCheck = {
  problems: () => ['fault injection is off on this server; the operator turns it on with ACACIA_FAULT_INJECTION=on'],
};

/** Adds the check's reasons under `x_test_env`. An empty value (clearing it) is always accepted. */
export function checkTestEnv(
  problems: Problems,
  text: string | undefined,
  check: TestEnvCheck,
  target: TestEnvTarget,
): void {
  if (text === undefined || text.trim() === '') return;
  for (const reason of check.problems(text, target)) problems.add('x_test_env', reason);
}
