import { api } from '../api/endpoints.js';
import type { MetaRecord, WorkgroupRecord, WorkspaceRecord } from '../api/types.js';
import { Link, navigate, useTitle } from '../router.js';
import { useSession } from '../session.js';
import { StatusBadge } from '../ui/badge.js';
import { useLiveLoad } from '../ui/data.js';
import { ConfirmButton } from '../ui/dialog.js';
import { FormDialog } from '../ui/form-dialog.js';
import { CheckboxField, SelectField, TextField, checked, int, text } from '../ui/forms.js';
import { LoadState, PageHeader, Section } from '../ui/page.js';
import { ResourceTable, nameColumn, type TableOf } from '../ui/resource-table.js';
import { RenameWorkgroupDialog } from './workgroups.js';

export function sizeOptions(meta: MetaRecord | undefined, current?: string) {
  return (meta?.workspace_types ?? [{ typeName: current ?? 'TG-00', cpu: '', memory: '', allowed: true }]).map((t) => ({
    value: t.typeName,
    label: `${t.typeName}${t.cpu ? ` · ${t.cpu} vCPU · ${t.memory}` : ''}${t.allowed ? '' : ' (above your tier)'}`,
    disabled: !t.allowed,
  }));
}

function CreateWorkspaceDialog({ wg, onDone }: { wg: WorkgroupRecord; onDone(ws: WorkspaceRecord): void }) {
  const { meta } = useSession();
  return (
    <FormDialog
      label="Create workspace"
      className="primary"
      submitLabel="Create workspace"
      submit={(data) => {
        const database = text(data, 'tg_database_id');
        return api.workspaces.create(wg.workgroup_id, {
          name: text(data, 'name'),
          workspace_type_name: text(data, 'workspace_type_name'),
          tg_version: text(data, 'tg_version'),
          enable_ha: checked(data, 'enable_ha'),
          auto_stop_minutes: int(data, 'auto_stop_minutes'),
          enable_auto_start: checked(data, 'enable_auto_start'),
          ...(database ? { tg_database_id: database, is_rw: false } : {}),
        });
      }}
      onDone={onDone}
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
    </FormDialog>
  );
}

/** The table of a workgroup's workspaces; `link` is a workspace's page. */
function workspaceTable(link: (ws: WorkspaceRecord) => string): TableOf<WorkspaceRecord> {
  return {
    key: (ws) => ws.workspace_id ?? '',
    empty: 'No workspaces in this workgroup yet.',
    columns: [
      nameColumn(link),
      {
        label: 'Status',
        testId: (ws) => `status-${ws.name}`,
        cell: (ws) => <StatusBadge status={ws.status} />,
      },
      {
        label: 'Size',
        cell: (ws) => (
          <>
            {ws.workspace_type?.typeName}
            {ws.enable_ha ? ' · HA' : ''}
          </>
        ),
      },
      { label: 'Mode', cell: (ws) => (ws.is_rw === false ? 'Read-only' : 'Read-write') },
      { label: 'Version', cell: (ws) => ws.tg_version },
    ],
  };
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
              {session.can('workgroup:edit', target) ? <RenameWorkgroupDialog wg={data} onDone={wg.reload} /> : null}
              {session.can('org:admin') ? (
                <ConfirmButton
                  label="Delete"
                  title={`Delete ${data.name}?`}
                  message={<p>A workgroup that still holds workspaces or databases is kept.</p>}
                  confirmLabel="Delete workgroup"
                  danger
                  action={() => api.workgroups.delete(id)}
                  onDone={() => navigate('/workgroups')}
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
            {data.expired_at
              ? ` · expired ${data.expired_at}, being deleted`
              : data.expires_at
                ? ` · expires ${data.expires_at}`
                : ''}
          </p>
        ) : null}
      </PageHeader>
      <LoadState error={wg.error} loading={!data}>
        <Section
          title="Workspaces"
          actions={
            data && session.can('workspace:create', target) ? (
              <CreateWorkspaceDialog
                wg={data}
                onDone={(ws) => {
                  wg.reload();
                  navigate(wsLink(ws));
                }}
              />
            ) : null
          }
        >
          <ResourceTable of={workspaceTable(wsLink)} list={{ data: data?.workspaces }} />
        </Section>
      </LoadState>
    </>
  );
}
