import { api } from '../api/endpoints.js';
import type { AllowListEntryRecord } from '../api/types.js';
import { useTitle } from '../router.js';
import { useSession } from '../session.js';
import { reloadAll, useLiveLoad } from '../ui/data.js';
import { ConfirmButton, DeleteButton } from '../ui/dialog.js';
import { FormDialog } from '../ui/form-dialog.js';
import { when } from '../ui/format.js';
import { Banner, Form, SubmitButton, TextField, text, useForm } from '../ui/forms.js';
import { LoadState, PageHeader, Section } from '../ui/page.js';
import { ResourceTable, type TableOf } from '../ui/resource-table.js';

const entryTable: TableOf<AllowListEntryRecord> = {
  key: (e) => e.id,
  empty: 'No entries.',
  columns: [
    { label: 'Address or range', cell: (e) => <code>{e.cidr}</code> },
    { label: 'Note', cell: (e) => e.note ?? <span className="muted">—</span> },
    { label: 'Expires', cell: (e) => (e.expires_at ? when(e.expires_at) : 'never') },
    { label: 'Added', className: 'nowrap', cell: (e) => when(e.created_at) },
  ],
};

export function AllowListPage({ wg: id }: { wg: string }) {
  const session = useSession();
  const relevant = (e: { workgroup_id?: string; resource_id: string }) => e.workgroup_id === id || e.resource_id === id;
  const wg = useLiveLoad(`wg:${id}`, () => api.workgroups.get(id), relevant);
  const entries = useLiveLoad(`allow:${id}`, () => api.allowList.list(id), relevant);
  const current = useLiveLoad(`allow-current:${id}`, () => api.allowList.current(id), relevant);
  useTitle(`Allow list of ${wg.data?.name ?? 'workgroup'}`);
  const canEdit = session.can('workgroup:edit', { workgroupId: id });
  const addForm = useForm();
  const mine = useForm();
  const reload = reloadAll(wg, entries, current);
  const enabled = wg.data?.enable_allow_list;
  return (
    <>
      <PageHeader
        title="Allow list"
        crumbs={[
          { label: 'Workgroups', to: '/workgroups' },
          { label: wg.data?.name ?? id, to: `/workgroups/${encodeURIComponent(id)}` },
          { label: 'Allow list' },
        ]}
        actions={
          canEdit && wg.data ? (
            enabled ? (
              <ConfirmButton
                label="Stop enforcing"
                title="Stop enforcing the allow list?"
                message={
                  <p>Every address may then reach this workgroup's workspaces (database users still sign in).</p>
                }
                confirmLabel="Stop enforcing"
                danger
                action={() => api.allowList.disable(id)}
                onDone={reload}
              />
            ) : (
              <ConfirmButton
                label="Enforce"
                title="Enforce the allow list?"
                message={<p>Only the addresses listed here may then reach this workgroup's workspaces.</p>}
                confirmLabel="Enforce allow list"
                action={() => api.allowList.enable(id)}
                onDone={reload}
              />
            )
          ) : null
        }
      >
        <p className="muted">
          {wg.data ? (
            <>
              The allow list of <strong>{wg.data.name}</strong> is{' '}
              <strong>{enabled ? 'enforced' : 'not enforced'}</strong>
              {enabled ? ': only these addresses reach its workspaces.' : ': any address reaches its workspaces.'}
            </>
          ) : (
            ' '
          )}
        </p>
      </PageHeader>
      <div className="grid">
        <Section title="Your address">
          <LoadState error={current.error} loading={!current.data}>
            {current.data ? (
              <div className="your-address">
                <p>
                  You are connecting from <code data-testid="my-address">{current.data.ip}</code>:{' '}
                  {current.data.allowed
                    ? current.data.matched_entry_id
                      ? 'listed here.'
                      : 'allowed (the list is not enforced).'
                    : 'not allowed.'}
                </p>
                <Banner messages={mine.banner} />
                {canEdit && !current.data.matched_entry_id ? (
                  <button
                    type="button"
                    className="primary"
                    disabled={mine.busy}
                    onClick={() =>
                      void mine.run(async () => {
                        const me = await api.allowList.current(id);
                        await api.allowList.create(id, { cidr: me.ip, note: 'Added from the console' });
                        reload();
                      })
                    }
                  >
                    Add my address
                  </button>
                ) : null}
              </div>
            ) : null}
          </LoadState>
        </Section>
        {canEdit ? (
          <Section title="Add an address or range">
            <Form
              form={addForm}
              label="Add an address or range"
              onSubmit={async (data) => {
                await api.allowList.create(id, { cidr: text(data, 'cidr') ?? '', note: text(data, 'note') });
                (addForm.ref.current as HTMLFormElement | null)?.reset();
                reload();
              }}
            >
              <div className="row">
                <TextField
                  name="cidr"
                  label="Address or range"
                  placeholder="203.0.113.0/24"
                  spellCheck={false}
                  hint="An IPv4 or IPv6 address, or a CIDR range."
                />
                <TextField name="note" label="Note" placeholder="Office network" />
              </div>
              <div className="actions">
                <SubmitButton>Add to allow list</SubmitButton>
              </div>
            </Form>
          </Section>
        ) : null}
      </div>
      <ResourceTable
        title="Entries"
        of={entryTable}
        list={entries}
        testId="allow-list"
        canEdit={canEdit}
        actions={(e) => (
          <>
            <FormDialog
              label="Edit"
              ariaLabel={`Edit ${e.cidr}`}
              title={`Edit ${e.cidr}`}
              submitLabel="Save"
              submit={(data) =>
                api.allowList.update(id, e.id, { cidr: text(data, 'cidr') ?? '', note: text(data, 'note') ?? '' })
              }
              onDone={reload}
            >
              <TextField name="cidr" label="Address or range" defaultValue={e.cidr} spellCheck={false} />
              <TextField name="note" label="Note" defaultValue={e.note} />
            </FormDialog>
            <DeleteButton
              name={e.cidr}
              kind="entry"
              message={<p>While the list is enforced, this address can no longer reach the workspaces.</p>}
              action={() => api.allowList.delete(id, e.id)}
              onDone={reload}
            />
          </>
        )}
      />
    </>
  );
}
