import { useState } from 'react';
import { api } from '../api/endpoints.js';
import type { ApiKeyRecord, CreateApiKeyBody } from '../api/types.js';
import { useTitle } from '../router.js';
import { useSession } from '../session.js';
import { useLiveLoad } from '../ui/data.js';
import { DeleteButton, Dialog } from '../ui/dialog.js';
import { FormDialog } from '../ui/form-dialog.js';
import { when } from '../ui/format.js';
import { SelectField, TextField, choices, int, text } from '../ui/forms.js';
import { PageHeader, Section } from '../ui/page.js';
import { Note, ResourceTable, type TableOf } from '../ui/resource-table.js';

type Role = ApiKeyRecord['role'];

const roleText: Record<Role, string> = {
  'org-admin': 'Organisation admin: everything',
  'workgroup-admin': 'Workgroup admin: the listed workgroups',
  'workspace-admin': 'Workspace admin: the listed workspaces (not deleting them)',
  viewer: 'Viewer: reads everything, changes nothing',
};

const ids = (value: string | undefined) =>
  value
    ?.split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

function scope(k: ApiKeyRecord): string {
  if (k.workgroup_ids.length) return `workgroups ${k.workgroup_ids.join(', ')}`;
  if (k.workspace_ids.length) return `workspaces ${k.workspace_ids.join(', ')}`;
  return 'the organisation';
}

/** The fields of a new key: the scope asked for follows the role chosen. */
function KeyFields() {
  const [role, setRole] = useState<Role>('viewer');
  return (
    <>
      <TextField name="key_name" label="Name" spellCheck={false} />
      <SelectField
        name="role"
        label="Role"
        options={choices(roleText)}
        defaultValue={role}
        onChange={(v) => setRole(v as Role)}
      />
      {role === 'workgroup-admin' ? (
        <TextField name="workgroup_ids" label="Workgroup ids" hint="Comma-separated." spellCheck={false} />
      ) : null}
      {role === 'workspace-admin' ? (
        <TextField name="workspace_ids" label="Workspace ids" hint="Comma-separated." spellCheck={false} />
      ) : null}
      <TextField name="description" label="Description" hint="Optional." />
      <TextField
        name="life_time_in_seconds"
        label="Expires after (seconds)"
        inputMode="numeric"
        hint="Optional; empty: never expires."
      />
    </>
  );
}

const keyTable: TableOf<ApiKeyRecord> = {
  key: (k) => k.key_name,
  empty: 'No keys.',
  columns: [
    {
      label: 'Name',
      className: 'strong',
      cell: (k) => (
        <>
          {k.key_name}
          <Note>{k.description}</Note>
        </>
      ),
    },
    { label: 'Role', cell: (k) => k.role },
    { label: 'Scope', cell: scope },
    { label: 'Key', cell: (k) => <code>{k.redacted_key}</code> },
    { label: 'Expires', cell: (k) => (k.expires_at ? when(k.expires_at) : 'never') },
  ],
};

function createKey(data: FormData) {
  const role = text(data, 'role') as Role;
  const body: CreateApiKeyBody = {
    key_name: text(data, 'key_name') ?? '',
    role,
    description: text(data, 'description'),
    ...(role === 'workgroup-admin' ? { workgroup_ids: ids(text(data, 'workgroup_ids')) ?? [] } : {}),
    ...(role === 'workspace-admin' ? { workspace_ids: ids(text(data, 'workspace_ids')) ?? [] } : {}),
    life_time_in_seconds: int(data, 'life_time_in_seconds'),
  };
  return api.apiKeys.create(body);
}

/** The plaintext of a new key, shown once; the dialog says so. */
function NewKeyDialog({ created, onClose }: { created: ApiKeyRecord | undefined; onClose(): void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog title="Your new API key" open={!!created} onClose={onClose}>
      <p>
        Copy the key <strong>{created?.key_name}</strong> now: it is shown only this once.
      </p>
      <label htmlFor="new-key">API key</label>
      <input
        id="new-key"
        readOnly
        value={created?.plaintext_key ?? ''}
        onFocus={(e) => e.target.select()}
        className="mono"
      />
      <div className="actions">
        <button
          type="button"
          onClick={() => void navigator.clipboard?.writeText(created?.plaintext_key ?? '').then(() => setCopied(true))}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

export function ApiKeysPage() {
  useTitle('API keys');
  const session = useSession();
  const admin = session.can('org:admin');
  const keys = useLiveLoad(
    'apikeys',
    () => (admin ? api.apiKeys.list() : Promise.resolve([])),
    (e) => e.resource_kind === 'api_key',
  );
  const [created, setCreated] = useState<ApiKeyRecord>();
  const me = session.key;
  return (
    <>
      <PageHeader
        title="API keys"
        actions={
          admin ? (
            <FormDialog
              label="Create key"
              title="Create an API key"
              className="primary"
              submitLabel="Create key"
              submit={createKey}
              onDone={(k) => {
                setCreated(k);
                keys.reload();
              }}
            >
              <KeyFields />
            </FormDialog>
          ) : null
        }
      />
      <NewKeyDialog created={created} onClose={() => setCreated(undefined)} />
      <div className="grid">
        <Section title="This key">
          <dl className="facts">
            <div>
              <dt>Name</dt>
              <dd>{me.key_name}</dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{roleText[me.role]}</dd>
            </div>
            <div>
              <dt>Scope</dt>
              <dd>{scope(me)}</dd>
            </div>
            <div>
              <dt>Key</dt>
              <dd>
                <code>{me.redacted_key}</code>
              </dd>
            </div>
            <div>
              <dt>Expires</dt>
              <dd>{me.expires_at ? when(me.expires_at) : 'never'}</dd>
            </div>
          </dl>
        </Section>
      </div>
      {admin ? (
        <ResourceTable
          title="Keys of the organisation"
          of={keyTable}
          list={keys}
          actions={(k) => (
            <DeleteButton
              verb="Revoke"
              name={k.key_name}
              kind="key"
              message={
                <p>
                  The key stops working at once
                  {k.key_name === me.key_name ? ', and this console signs out' : ''}.
                </p>
              }
              action={() => api.apiKeys.revoke(k.key_name)}
              onDone={keys.reload}
            />
          )}
        />
      ) : (
        <p className="muted">Only an organisation admin key lists and manages the organisation's keys.</p>
      )}
    </>
  );
}
