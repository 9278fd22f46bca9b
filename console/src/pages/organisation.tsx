import { api } from '../api/endpoints.js';
import type { OrgQuota, OrgUser } from '../api/types.js';
import { useTitle } from '../router.js';
import { useSession } from '../session.js';
import { useLoad } from '../ui/data.js';
import { FormDialog } from '../ui/form-dialog.js';
import { when } from '../ui/format.js';
import { TextField, text } from '../ui/forms.js';
import { PageHeader, Section } from '../ui/page.js';
import { Note, ResourceTable, type TableOf } from '../ui/resource-table.js';

const GIB = 1024 ** 3;

/** One quota as a bar: how much of the limit is used. */
function UsageBar({ label, used, limit, unit = '' }: { label: string; used: number; limit: number; unit?: string }) {
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  return (
    <div className="usage" data-testid={`quota-${label.toLowerCase().replace(/\W+/g, '-')}`}>
      <div className="usage-label">
        <span>{label}</span>
        <span>
          {used}
          {unit} of {limit}
          {unit}
        </span>
      </div>
      <meter min={0} max={1} value={share} high={0.8} optimum={0} aria-label={`${label} used`} />
    </div>
  );
}

function QuotaBars({ quota }: { quota: OrgQuota }) {
  return (
    <>
      <UsageBar
        label="Read-write workspaces"
        used={quota.rw_workspace_count_usage}
        limit={quota.rw_workspace_count_limit}
      />
      <UsageBar
        label="Read-only workspaces"
        used={quota.ro_workspace_count_usage}
        limit={quota.ro_workspace_count_limit}
      />
      <UsageBar
        label="Memory"
        used={quota.memory_usage_in_bytes / GIB}
        limit={Number.parseInt(quota.memory_limit, 10)}
        unit=" GB"
      />
      <p className="hint">
        {`Largest size ${quota.max_workspace_type}. Backups per read-write workspace: `}
        {`${quota.workspace_manual_backup_count_limit} manual, ${quota.workspace_auto_backup_count_limit} automatic, `}
        {`kept ${quota.workspace_auto_backup_retention_in_days} days by default.`}
      </p>
    </>
  );
}

/** Roles as PUT /users/{userId}/roles takes them: one a line or comma-separated. */
const roleList = (value: string | undefined) =>
  (value ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

const roleHint =
  'Comma-separated: org-admin, billing-admin, billing-viewer, ' +
  'workgroup-admin:<id>, workspace-admin:<id>, workspace-member:<id>.';

function userTable(admin: boolean, reload: () => void): TableOf<OrgUser> {
  return {
    key: (u) => u.id,
    empty: 'No users.',
    columns: [
      {
        label: 'User',
        className: 'strong',
        cell: (u) => (
          <>
            {u.email ?? u.username}
            <Note>{[u.firstName, u.lastName].filter(Boolean).join(' ')}</Note>
          </>
        ),
      },
      { label: 'Status', cell: (u) => (u.enabled ? u.status : 'disabled') },
      {
        label: 'Roles',
        cell: (u) =>
          u.roles.length
            ? u.roles.map((r) => r.displayName + (r.path === '/' ? '' : ` (${r.path})`)).join(', ')
            : 'member',
      },
      { label: 'Created', cell: (u) => when(u.created) },
      {
        label: '',
        cell: (u) =>
          admin ? (
            <FormDialog
              label="Edit roles"
              ariaLabel={`Edit the roles of ${u.email ?? u.username}`}
              title={`Roles of ${u.email ?? u.username}`}
              submitLabel="Save roles"
              submit={(data) => api.users.setRoles(u.id, { roles: roleList(text(data, 'roles')) })}
              onDone={reload}
            >
              <TextField
                name="roles"
                label="Roles"
                defaultValue={u.roles.map((r) => r.id).join(', ')}
                hint={roleHint}
                spellCheck={false}
              />
            </FormDialog>
          ) : null,
      },
    ],
  };
}

export function OrganisationPage() {
  useTitle('Organisation');
  const session = useSession();
  const admin = session.can('org:admin');
  const org = useLoad('org', () => api.org.show());
  const quota = useLoad('org-quota', () => api.org.quota());
  const users = useLoad('users', () => (admin ? api.users.list() : Promise.resolve([])));
  const o = org.data;
  return (
    <>
      <PageHeader
        title={o?.org_display_name ?? 'Organisation'}
        actions={
          admin && o ? (
            <FormDialog
              label="Edit"
              title="Edit the organisation"
              submitLabel="Save"
              submit={(data) =>
                api.org.update({ orgDisplayName: text(data, 'display') ?? '', logoUrl: text(data, 'logo') ?? '' })
              }
              onDone={org.reload}
            >
              <TextField name="display" label="Display name" defaultValue={o.org_display_name} />
              <TextField
                name="logo"
                label="Logo URL"
                defaultValue={o.logo_url ?? ''}
                hint="An https URL; empty: none."
              />
            </FormDialog>
          ) : null
        }
      />
      <div className="grid">
        <Section title="Organisation">
          {o ? (
            <dl className="facts">
              <div>
                <dt>Name</dt>
                <dd>{o.org_name}</dd>
              </div>
              <div>
                <dt>Display name</dt>
                <dd>{o.org_display_name}</dd>
              </div>
              <div>
                <dt>Tier</dt>
                <dd>{o.tier}</dd>
              </div>
              <div>
                <dt>Logo</dt>
                <dd>{o.logo_url ? <code>{o.logo_url}</code> : 'none'}</dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>{when(o.create_time)}</dd>
              </div>
              {o.delinquent_since ? (
                <div>
                  <dt>Payment overdue since</dt>
                  <dd>{when(o.delinquent_since)}</dd>
                </div>
              ) : null}
            </dl>
          ) : (
            <p>Loading…</p>
          )}
        </Section>
        <Section title="Quota">{quota.data ? <QuotaBars quota={quota.data} /> : <p>Loading…</p>}</Section>
      </div>
      {admin ? <ResourceTable title="Users" of={userTable(admin, users.reload)} list={users} testId="users" /> : null}
    </>
  );
}
