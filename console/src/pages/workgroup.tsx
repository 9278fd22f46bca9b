import { api } from '../api/endpoints.js';
import type { MetaRecord, WorkgroupRecord, WorkspaceRecord } from '../api/types.js';
import { Link, navigate, useTitle } from '../router.js';
import { useSession } from '../session.js';
import { StatusBadge } from '../ui/badge.js';
import { useLiveLoad } from '../ui/data.js';
import { ConfirmButton, DialogButton } from '../ui/dialog.js';
import { CheckboxField, Form, SelectField, SubmitButton, TextField, checked, int, text, useForm } from '../ui/forms.js';
import { Empty, LoadState, PageHeader } from '../ui/page.js';
import { RenameWorkgroupForm } from './workgroups.js';

export function sizeOptions(meta: MetaRecord | undefined, current?: string) {
  return (meta?.workspace_types ?? [{ typeName: current ?? 'TG-00', cpu: '', memory: '', allowed: true }]).map((t) => ({
    value: t.typeName,
    label: `${t.typeName}${t.cpu ? ` · ${t.cpu} vCPU · ${t.memory}` : ''}${t.allowed ? '' : ' (above your tier)'}`,
    disabled: !t.allowed,
  }));
}

function CreateWorkspaceForm({ wg, done }: { wg: WorkgroupRecord; done(ws: WorkspaceRecord): void }) {
  const { meta } = useSession();
  const form = useForm();
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        const database = text(data, 'tg_database_id');
        const ws = await api.workspaces.create(wg.workgroup_id, {
          name: text(data, 'name'),
          workspace_type_name: text(data, 'workspace_type_name'),
          tg_version: text(data, 'tg_version'),
          enable_ha: checked(data, 'enable_ha'),
          auto_stop_minutes: int(data, 'auto_stop_minutes'),
          enable_auto_start: checked(data, 'enable_auto_start'),
          ...(database ? { tg_database_id: database, is_rw: false } : {}),
        });
        done(ws);
      }}
    >
      <TextField name="name" label="Name" hint="Optional; a name is made up when left empty." />
      <SelectField name="workspace_type_name" label="Size" options={sizeOptions(meta)} defaultValue="TG-00" />
      <SelectField
        name="tg_version"
        label="Version"
        options={(meta?.tg_versions ?? []).map((v) => ({ value: v, label: v }))}
        defaultValue={meta?.default_tg_version}
      />
      <SelectField
        name="tg_database_id"
        label="Database"
        hint="A read-only workspace serves an existing database."
        options={[
          { value: '', label: 'A new database (read-write workspace)' },
          ...wg.tg_databases.map((db) => ({ value: db.database_id ?? '', label: `${db.name} (read-only workspace)` })),
        ]}
      />
      <CheckboxField name="enable_ha" label="High availability (two replicas)" />
      <TextField
        name="auto_stop_minutes"
        label="Auto-stop after idle minutes"
        inputMode="numeric"
        hint="0 or empty: never stop by itself."
      />
      <CheckboxField name="enable_auto_start" label="Start automatically when a request arrives" />
      <div className="actions">
        <SubmitButton>Create workspace</SubmitButton>
      </div>
    </Form>
  );
}

export function WorkgroupPage({ wg: id }: { wg: string }) {
  const session = useSession();
  const wg = useLiveLoad(
    `wg:${id}`,
    () => api.workgroups.get(id),
    (e) => e.workgroup_id === id || e.resource_id === id,
  );
  useTitle(wg.data?.name ?? 'Workgroup');
  const target = { workgroupId: id };
  const data = wg.data;
  const wsLink = (ws: WorkspaceRecord) =>
    `/workgroups/${encodeURIComponent(id)}/workspaces/${encodeURIComponent(ws.workspace_id ?? '')}`;
  return (
    <>
      <PageHeader
        title={data?.name ?? 'Workgroup'}
        crumbs={[{ label: 'Workgroups', to: '/workgroups' }, { label: data?.name ?? id }]}
        actions={
          data ? (
            <>
              <Link className="button" to={`/workgroups/${encodeURIComponent(id)}/allow-list`}>
                Allow list
              </Link>
              {session.can('workgroup:edit', target) ? (
                <DialogButton label="Rename" title={`Rename ${data.name}`}>
                  {(close) => (
                    <RenameWorkgroupForm
                      wg={data}
                      done={() => {
                        close();
                        wg.reload();
                      }}
                    />
                  )}
                </DialogButton>
              ) : null}
              {session.can('org:admin') ? (
                <ConfirmButton
                  label="Delete"
                  title={`Delete ${data.name}?`}
                  message={<p>A workgroup that still holds workspaces or databases is kept.</p>}
                  confirmLabel="Delete workgroup"
                  danger
                  action={async () => {
                    await api.workgroups.delete(id);
                    navigate('/workgroups');
                  }}
                />
              ) : null}
            </>
          ) : null
        }
      >
        {data ? (
          <p className="muted">
            {data.platform} · {data.region} · {data.cloud_provider_name ?? data.cloud_provider_id}
            {data.encryption_method ? ` · encrypted (${data.encryption_method})` : ''}
          </p>
        ) : null}
      </PageHeader>
      <LoadState error={wg.error} loading={!data}>
        <section className="card" aria-labelledby="workspaces-heading">
          <div className="card-head">
            <h2 id="workspaces-heading">Workspaces</h2>
            {data && session.can('workspace:create', target) ? (
              <div className="actions">
                <DialogButton label="Create workspace" className="primary">
                  {(close) => (
                    <CreateWorkspaceForm
                      wg={data}
                      done={(ws) => {
                        close();
                        wg.reload();
                        navigate(wsLink(ws));
                      }}
                    />
                  )}
                </DialogButton>
              </div>
            ) : null}
          </div>
          {data?.workspaces.length === 0 ? (
            <Empty>No workspaces in this workgroup yet.</Empty>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Size</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Version</th>
                </tr>
              </thead>
              <tbody>
                {data?.workspaces.map((ws) => (
                  <tr key={ws.workspace_id}>
                    <td data-label="Name">
                      <Link to={wsLink(ws)} className="strong">
                        {ws.name}
                      </Link>
                    </td>
                    <td data-label="Status" data-testid={`status-${ws.name}`}>
                      <StatusBadge status={ws.status} />
                    </td>
                    <td data-label="Size">
                      {ws.workspace_type?.typeName}
                      {ws.enable_ha ? ' · HA' : ''}
                    </td>
                    <td data-label="Mode">{ws.is_rw === false ? 'Read-only' : 'Read-write'}</td>
                    <td data-label="Version">{ws.tg_version}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </LoadState>
    </>
  );
}
