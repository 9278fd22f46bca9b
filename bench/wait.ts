import { resultOf, type AcaciaClient } from '../src/client/index.js';

/** Polls until every workspace of the workgroups is Active (creates run on the server's engine). */
export async function waitAllActive(client: AcaciaClient, workgroupIds: string[], timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let pending = [...workgroupIds];
  while (pending.length > 0) {
    const still: string[] = [];
    for (const wg of pending) {
      const list = resultOf(await client.workspaces.list(wg));
      if (list.some((w) => w.status !== 'Active')) still.push(wg);
    }
    pending = still;
    if (pending.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`workspaces of ${pending.length} workgroup(s) did not become Active in time`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
