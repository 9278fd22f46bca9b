import { api } from '../api/endpoints.js';
import type { WorkgroupRecord } from '../api/types.js';
import { Link, navigate, useTitle } from '../router.js';
import { useSession } from '../session.js';
import { StatusBadge } from '../ui/badge.js';
import { useLiveLoad } from '../ui/data.js';
import { DeleteButton } from '../ui/dialog.js';
import { FormDialog } from '../ui/form-dialog.js';
import { CheckboxField, SelectField, TextField, checked, text } from '../ui/forms.js';
import { PageHeader } from '../ui/page.js';
import { Note, ResourceTable, nameColumn, type TableOf } from '../ui/resource-table.js';

/** The active providers to choose from, loaded when the dialog opens. */
function ProviderField() {
  const providers = useLiveLoad('providers', api.cloudProviders.list, (e) => e.resource_kind === 'cloud_provider');
  const active = (providers.data ?? []).filter((p) => p.status === 'Active');
  return (
    <SelectField
      name="cloud_provider_id"
      label="Cloud provider and region"
      options={active.map((p) => ({
        value: p.id,
        label: `${p.platform} · ${p.region}${p.type === 'private' ? ` · ${p.name}` : ''}`,
      }))}
    />
  );
}

/** Renames a workgroup; on its own page (`ariaLabel` absent) and on each row of the list. */
export function RenameWorkgroupDialog({
  wg,
  ariaLabel,
  onDone,
}: {
  wg: WorkgroupRecord;
  ariaLabel?: string;
  onDone(): void;
}) {
  return (
    <FormDialog
      label="Rename"
      ariaLabel={ariaLabel}
      title={`Rename ${wg.name}`}
      submitLabel="Rename"
      submit={(data) => api.workgroups.update(wg.workgroup_id, { workgroup_name: text(data, 'workgroup_name') ?? '' })}
      onDone={onDone}
    >
      <TextField name="workgroup_name" label="New name" defaultValue={wg.name} />
    </FormDialog>
  );
}

function counts(wg: WorkgroupRecord) {
  const by = new Map<string, number>();
  for (const ws of wg.workspaces) by.set(ws.status ?? 'Unknown', (by.get(ws.status ?? 'Unknown') ?? 0) + 1);
  return [...by.entries()];
}

const wgPath = (wg: WorkgroupRecord) => `/workgroups/${encodeURIComponent(wg.workgroup_id)}`;

const workgroupTable: TableOf<WorkgroupRecord> = {
  key: (wg) => wg.workgroup_id,
  empty: 'No workgroups yet.',
  columns: [
    nameColumn(wgPath),
    {
      label: 'Where',
      cell: (wg) => (
        <>
          {wg.platform} · {wg.region}
          <Note>{wg.cloud_provider_name}</Note>
          {wg.expires_at ? <Note>{wg.expired_at ? 'expired, being deleted' : `expires ${wg.expires_at}`}</Note> : null}
        </>
      ),
    },
    {
      label: 'Workspaces',
      cell: (wg) =>
        wg.workspaces.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <span className="badges">
            {counts(wg).map(([status, n]) => (
              <span key={status}>
                {n} <StatusBadge status={status} />
              </span>
            ))}
          </span>
        ),
    },
    {
      label: 'Allow list',
      cell: (wg) => <Link to={`${wgPath(wg)}/allow-list`}>{wg.enable_allow_list ? 'Enforced' : 'Off'}</Link>,
    },
  ],
};

export function WorkgroupsPage() {
  useTitle('Workgroups');
  const session = useSession();
  const list = useLiveLoad('workgroups', api.workgroups.list, (e) =>
    ['workgroup', 'workspace'].includes(e.resource_kind),
  );
  return (
    <>
      <PageHeader
        title="Workgroups"
        actions={
          session.can('org:admin') ? (
            <FormDialog
              label="Create workgroup"
              className="primary"
              submitLabel="Create workgroup"
              submit={(data) =>
                api.workgroups.create({
                  name: text(data, 'name'),
                  cloud_provider_id: text(data, 'cloud_provider_id') ?? '',
                  enable_encryption: checked(data, 'enable_encryption'),
                  enable_application_log: checked(data, 'enable_application_log'),
                })
              }
              onDone={(wg) => navigate(wgPath(wg))}
            >
              <TextField name="name" label="Name" hint="Optional; a name is made up when left empty." />
              <ProviderField />
              <CheckboxField name="enable_encryption" label="Encrypt data at rest" />
              <CheckboxField name="enable_application_log" label="Keep application logs" />
            </FormDialog>
          ) : null
        }
      >
        <p className="muted">A workgroup is a cloud provider and region with its workspaces and allow list.</p>
      </PageHeader>
      <ResourceTable
        of={workgroupTable}
        card
        list={list}
        actions={(wg) => (
          <>
            {session.can('workgroup:edit', { workgroupId: wg.workgroup_id }) ? (
              <RenameWorkgroupDialog wg={wg} ariaLabel={`Rename ${wg.name}`} onDone={list.reload} />
            ) : null}
            {session.can('org:admin') ? (
              <DeleteButton
                name={wg.name}
                kind="workgroup"
                message={
                  <p>
                    The workgroup and its allow list are deleted. A workgroup that still holds workspaces or databases
                    is kept.
                  </p>
                }
                action={() => api.workgroups.delete(wg.workgroup_id)}
                onDone={list.reload}
              />
            ) : null}
          </>
        )}
      />
    </>
  );
}
