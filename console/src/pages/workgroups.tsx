import { api } from '../api/endpoints.js';
import type { WorkgroupRecord } from '../api/types.js';
import { Link, navigate, useTitle } from '../router.js';
import { useSession } from '../session.js';
import { StatusBadge } from '../ui/badge.js';
import { useLiveLoad } from '../ui/data.js';
import { ConfirmButton, DialogButton } from '../ui/dialog.js';
import { CheckboxField, Form, SelectField, SubmitButton, TextField, checked, text, useForm } from '../ui/forms.js';
import { Empty, LoadState, PageHeader, RowActions } from '../ui/page.js';

function CreateWorkgroupForm({ done }: { done(wg: WorkgroupRecord): void }) {
  const form = useForm();
  const providers = useLiveLoad('providers', api.cloudProviders.list, (e) => e.resource_kind === 'cloud_provider');
  const active = (providers.data ?? []).filter((p) => p.status === 'Active');
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        const wg = await api.workgroups.create({
          name: text(data, 'name'),
          cloud_provider_id: text(data, 'cloud_provider_id') ?? '',
          enable_encryption: checked(data, 'enable_encryption'),
          enable_application_log: checked(data, 'enable_application_log'),
        });
        done(wg);
      }}
    >
      <TextField name="name" label="Name" hint="Optional; a name is made up when left empty." />
      <SelectField
        name="cloud_provider_id"
        label="Cloud provider and region"
        options={active.map((p) => ({
          value: p.id,
          label: `${p.platform} · ${p.region}${p.type === 'private' ? ` · ${p.name}` : ''}`,
        }))}
      />
      <CheckboxField name="enable_encryption" label="Encrypt data at rest" />
      <CheckboxField name="enable_application_log" label="Keep application logs" />
      <div className="actions">
        <SubmitButton>Create workgroup</SubmitButton>
      </div>
    </Form>
  );
}

export function RenameWorkgroupForm({ wg, done }: { wg: WorkgroupRecord; done(): void }) {
  const form = useForm();
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        await api.workgroups.update(wg.workgroup_id, { workgroup_name: text(data, 'workgroup_name') ?? '' });
        done();
      }}
    >
      <TextField name="workgroup_name" label="New name" defaultValue={wg.name} />
      <div className="actions">
        <SubmitButton>Rename</SubmitButton>
      </div>
    </Form>
  );
}

function counts(wg: WorkgroupRecord) {
  const by = new Map<string, number>();
  for (const ws of wg.workspaces) by.set(ws.status ?? 'Unknown', (by.get(ws.status ?? 'Unknown') ?? 0) + 1);
  return [...by.entries()];
}

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
            <DialogButton label="Create workgroup" className="primary">
              {(close) => (
                <CreateWorkgroupForm
                  done={(wg) => {
                    close();
                    navigate(`/workgroups/${encodeURIComponent(wg.workgroup_id)}`);
                  }}
                />
              )}
            </DialogButton>
          ) : null
        }
      >
        <p className="muted">A workgroup is a cloud provider and region with its workspaces and allow list.</p>
      </PageHeader>
      <LoadState error={list.error} loading={!list.data}>
        {list.data?.length === 0 ? (
          <Empty>No workgroups yet.</Empty>
        ) : (
          <div className="card">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Where</th>
                  <th scope="col">Workspaces</th>
                  <th scope="col">Allow list</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data?.map((wg) => (
                  <tr key={wg.workgroup_id}>
                    <td data-label="Name">
                      <Link to={`/workgroups/${encodeURIComponent(wg.workgroup_id)}`} className="strong">
                        {wg.name}
                      </Link>
                    </td>
                    <td data-label="Where">
                      {wg.platform} · {wg.region}
                      <div className="muted small">{wg.cloud_provider_name}</div>
                    </td>
                    <td data-label="Workspaces">
                      {wg.workspaces.length === 0 ? (
                        <span className="muted">none</span>
                      ) : (
                        <span className="badges">
                          {counts(wg).map(([status, n]) => (
                            <span key={status}>
                              {n} <StatusBadge status={status} />
                            </span>
                          ))}
                        </span>
                      )}
                    </td>
                    <td data-label="Allow list">
                      <Link to={`/workgroups/${encodeURIComponent(wg.workgroup_id)}/allow-list`}>
                        {wg.enable_allow_list ? 'Enforced' : 'Off'}
                      </Link>
                    </td>
                    <RowActions>
                      {session.can('workgroup:edit', { workgroupId: wg.workgroup_id }) ? (
                        <DialogButton label="Rename" ariaLabel={`Rename ${wg.name}`} title={`Rename ${wg.name}`}>
                          {(close) => (
                            <RenameWorkgroupForm
                              wg={wg}
                              done={() => {
                                close();
                                list.reload();
                              }}
                            />
                          )}
                        </DialogButton>
                      ) : null}
                      {session.can('org:admin') ? (
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete ${wg.name}`}
                          title={`Delete ${wg.name}?`}
                          message={
                            <p>
                              The workgroup and its allow list are deleted. A workgroup that still holds workspaces or
                              databases is kept.
                            </p>
                          }
                          confirmLabel="Delete workgroup"
                          danger
                          action={async () => {
                            await api.workgroups.delete(wg.workgroup_id);
                            list.reload();
                          }}
                        />
                      ) : null}
                    </RowActions>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </LoadState>
    </>
  );
}
