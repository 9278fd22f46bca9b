// A client written against nothing but /openapi.json: the types come from openapi-typescript
// (CI generates generated/acacia.d.ts from the served document) and requests go through
// openapi-fetch. Type-checked in CI: every field the server always returns is read without a
// non-null assertion, so a field that lost `required` in the document fails the check.
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/acacia.js';

type Workspace = components['schemas']['WorkspaceRecord'];
type Envelope = components['schemas']['ErrorEnvelope'];

const API = '/controller/v4/v2';

function reasons(error: Envelope): string {
  return error.ErrorDetails.map((d) => `${d.Type} ${d.FieldName}: ${d.Reason}`).join('; ');
}

export async function journey(baseUrl: string, apiKey: string): Promise<string> {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });

  const providers = await client.GET(`${API}/cloud-providers`);
  if (providers.error) throw new Error(reasons(providers.error));
  const provider = providers.data.Result.find((p) => p.type === 'public' && p.status === 'Active');
  if (!provider) throw new Error('no Active public provider');

  const created = await client.POST(`${API}/workgroups`, {
    body: { cloud_provider_id: provider.id, name: 'journey' },
    params: { header: { 'Idempotency-Key': 'journey-workgroup-1' } },
  });
  if (created.error) throw new Error(reasons(created.error));
  const workgroupID: string = created.data.Result.workgroup_id;

  const ws = await client.POST(`${API}/workgroups/{workgroupID}/workspaces`, {
    params: { path: { workgroupID } },
    body: { name: 'journey-ws', workspace_type_name: 'TG-00' },
  });
  if (ws.error) throw new Error(reasons(ws.error));
  const workspaceID: string = ws.data.Result.workspace_id;

  let workspace: Workspace = ws.data.Result;
  while (workspace.status !== 'Active' && workspace.status !== 'Failed') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const read = await client.GET(`${API}/workgroups/{workgroupID}/workspaces/{workspaceID}`, {
      params: { path: { workgroupID, workspaceID } },
    });
    if (read.error) throw new Error(reasons(read.error));
    workspace = read.data.Result;
  }
  if (workspace.status === 'Failed') throw new Error(workspace.err_message ?? 'the workspace failed');

  // The discovery walk: the data-plane host of every workspace.
  const list = await client.GET(`${API}/workgroups`, { params: { query: { limit: 100 } } });
  if (list.error) throw new Error(reasons(list.error));
  const hosts: string[] = list.data.Result.flatMap((g) => g.workspaces.map((w) => w.nginx_host));
  const sizes: number[] = list.data.Result.flatMap((g) => g.tg_databases.map((d) => d.folder_statistics.milvus_size));

  const paused = await client.POST(`${API}/workgroups/{workgroupID}/workspaces/{workspaceID}/pause`, {
    params: { path: { workgroupID, workspaceID }, header: { 'If-Match': String(workspace.version_number) } },
  });
  if (paused.error) throw new Error(reasons(paused.error));
  const operations = await client.GET(`${API}/operations`, { params: { query: { resource_id: workspaceID } } });
  if (operations.error) throw new Error(reasons(operations.error));
  const states: string[] = operations.data.Result.map((o) => `${o.kind} ${o.state}`);

  const current = await client.GET(`${API}/workgroups/{workgroupID}/allow_list/current`, {
    params: { path: { workgroupID } },
  });
  if (current.error) throw new Error(reasons(current.error));
  const allowed: boolean = current.data.Result.IsAllowed;

  return [paused.data.Result.status, ...hosts, ...sizes.map(String), ...states, String(allowed)].join('\n');
}
