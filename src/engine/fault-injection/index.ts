import { largestTopologyBytes, type Catalog } from '../../domain/catalog.js';
import { faultInjectionOff, type TestEnvCheck, type TestEnvTarget } from '../../domain/test-env.js';
import type { Drivers } from '../drivers/driver.js';
import { directiveProblems, type DirectiveLimits } from './directives.js';
import { withFaultInjection } from './wrap.js';

export { MAX_SLOW_MS, parseDirectives, type Directives } from './directives.js';

/**
 * Fault injection through `x_test_env`: a testing aid, off unless the operator turns it on
 * (ACACIA_FAULT_INJECTION=on), and bounded so no directive can push a time or a size past
 * what the store and Date can hold. It answers the domain's "is this text acceptable" and
 * wraps whichever drivers run, so every driver gets it alike.
 */
export class FaultInjection implements TestEnvCheck {
  private readonly limits: DirectiveLimits;

  constructor(
    readonly enabled: boolean,
    catalog: Catalog,
  ) {
    this.limits = { maxTopologyBytes: largestTopologyBytes(catalog) };
  }

  problems(text: string, target: TestEnvTarget): string[] {
    return this.enabled ? directiveProblems(text, target, this.limits) : faultInjectionOff.problems(text, target);
  }

  /** The drivers as the engine runs them: off, as they are, so stored directives are ignored. */
  wrap(drivers: Drivers): Drivers {
    return this.enabled ? withFaultInjection(drivers, this.limits) : drivers;
  }
}
