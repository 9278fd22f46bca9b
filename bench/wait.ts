import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { publicProvider } from '../test/helpers/server.js';

/** Polls `done` every 200 ms until it holds; past `timeoutMs`, fails naming `what`. */
export async function waitUntil(done: () => Promise<boolean>, what: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Polls until every workspace of the workgroups is Active (creates run on the server's engine). */
export async function waitAllActive(client: AcaciaClient, workgroupIds: string[], timeoutMs = 300_000): Promise<void> {
  await waitUntil(
    async () => {
      for (const wg of workgroupIds)
        if (resultOf(await client.workspaces.list(wg)).some((w) => w.status !== 'Active')) return false;
      return true;
    },
    `every workspace of ${workgroupIds.length} workgroup(s) Active`,
    timeoutMs,
  );
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
