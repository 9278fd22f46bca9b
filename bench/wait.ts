import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { publicProvider } from '../test/helpers/server.js';

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

/** A new workgroup on a public provider holding `count` workspaces named `<name>-<i>`, once all are Active. */
export async function activeWorkgroup(
  client: AcaciaClient,
  name: string,
  count: number,
): Promise<{ workgroupId: string; workspaceIds: string[] }> {
  const provider = await publicProvider(client);
  const workgroupId = resultOf(await client.workgroups.create({ name, cloud_provider_id: provider })).workgroup_id!;
  const workspaceIds: string[] = [];
  for (let i = 0; i < count; i++)
    workspaceIds.push(resultOf(await client.workspaces.create(workgroupId, { name: `${name}-${i}` })).workspace_id!);
  await waitAllActive(client, [workgroupId]);
  return { workgroupId, workspaceIds };
}
