import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid: number): number {
  // Fields after the command (which may hold spaces) start after its closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** The server's acacia_store_statements_total, where it has the metric. */
export async function statementsRun(url: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const match = /^acacia_store_statements_total (\d+)/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** What a server spent while `work` ran. */
export interface Spent<T> {
  result: T;
  /** CPU seconds (user + system), when its pid was given. */
  cpu?: number;
  /** Store statements, when its /metrics counts them (the bracketing scrapes' own included). */
  statements?: number;
}

/** Runs `work` and charges it the server's CPU time and store statements meanwhile. */
export async function spentDuring<T>(
  server: { pid?: number | undefined; metricsUrl?: string | undefined },
  work: () => Promise<T>,
): Promise<Spent<T>> {
  const { pid, metricsUrl } = server;
  // The scrapes bracket the CPU reading, so their own CPU is not charged to the work.
  const statementsBefore = metricsUrl !== undefined ? await statementsRun(metricsUrl) : undefined;
  const cpuBefore = pid !== undefined ? cpuSeconds(pid) : undefined;
  const result = await work();
  const spent: Spent<T> = { result };
  if (cpuBefore !== undefined) spent.cpu = cpuSeconds(pid!) - cpuBefore;
  if (statementsBefore !== undefined) {
    const after = await statementsRun(metricsUrl!);
    if (after !== undefined) spent.statements = after - statementsBefore;
  }
  return spent;
}
