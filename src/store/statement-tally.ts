import { AsyncLocalStorage } from 'node:async_hooks';

/** The statements one unit of work (a request) ran on the store, and the time they took. */
export interface StatementTally {
  statements: number;
  ms: number;
}

const current = new AsyncLocalStorage<StatementTally>();
/** Every statement this process ran on the store, for /metrics. */
let total = 0;

/** How many statements this process has run on the store since it started. */
export const statementsRun = (): number => total;

/** Runs fn with a fresh tally that every statement run from within it (awaits included) adds to. */
export function withStatementTally<T>(tally: StatementTally, fn: () => T): T {
  return current.run(tally, fn);
}

/** Counts one statement against the tally of the work it runs for, if that work keeps one. */
export function countStatement(ms: number): void {
  total += 1;
  const tally = current.getStore();
  if (tally) {
    tally.statements += 1;
    tally.ms += ms;
  }
}
