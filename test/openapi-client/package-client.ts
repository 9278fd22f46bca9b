// The typed client as an installed package exposes it: `acacia/client` (package.json exports)
// with the declarations the build writes. Type-checked in CI after the build.
import { AcaciaClient, AcaciaWaitTimeoutError, resultOf, type WorkspaceRecord } from 'acacia/client';

export async function createAndWait(baseUrl: string, apiKey: string, workgroupId: string): Promise<WorkspaceRecord> {
  const client = new AcaciaClient({ baseUrl, apiKey, auth: 'bearer' });
  const created = resultOf(await client.workspaces.create(workgroupId, { name: 'from-the-package' }));
  try {
    return await client.waitFor({ workgroup: workgroupId, workspace: created.workspace_id }, { timeoutMs: 300_000 });
  } catch (err) {
    if (err instanceof AcaciaWaitTimeoutError) console.error(err.message);
    throw err;
  }
}
