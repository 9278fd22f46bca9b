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
