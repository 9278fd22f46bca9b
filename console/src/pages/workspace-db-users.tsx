import { api } from '../api/endpoints.js';
import type { DbUserRecord, WorkspaceRecord } from '../api/types.js';
import { useWorkspaceRecords } from '../ui/data.js';
import { DeleteButton } from '../ui/dialog.js';
import { FormDialog } from '../ui/form-dialog.js';
import { when } from '../ui/format.js';
import { TextField, text } from '../ui/forms.js';
import { ResourceTable, type TableOf } from '../ui/resource-table.js';

function PasswordField({ label }: { label: string }) {
  return (
    <TextField
      name="password"
      label={label}
      type="password"
      autoComplete="new-password"
      hint="At least 12 characters, of 3 kinds: lower case, upper case, digits, symbols."
    />
  );
}

const userTable: TableOf<DbUserRecord> = {
  key: (u) => u.username,
  empty: 'No database users.',
  columns: [
    { label: 'User name', className: 'strong', cell: (u) => u.username },
    { label: 'Created', className: 'nowrap', cell: (u) => when(u.created_at) },
    { label: 'Password changed', className: 'nowrap', cell: (u) => when(u.updated_at) },
  ],
};

/** Database users sign in to the workspace's endpoint; passwords are never shown again. */
export function DbUsersSection({ ws, canEdit }: { ws: WorkspaceRecord; canEdit: boolean }) {
  const wg = ws.workgroup_id ?? '';
  const id = ws.workspace_id ?? '';
  const users = useWorkspaceRecords(ws, 'db_user', api.dbUsers.list);
  const password = (data: FormData) => text(data, 'password') ?? '';
  return (
    <ResourceTable
      title="Database users"
      of={userTable}
      list={users}
      canEdit={canEdit}
      add={
        <FormDialog
          label="Add user"
          title={`Add a database user to ${ws.name}`}
          submitLabel="Add user"
          submit={(data) =>
            api.dbUsers.create(wg, id, { username: text(data, 'username') ?? '', password: password(data) })
          }
          onDone={users.reload}
        >
          <TextField name="username" label="User name" autoComplete="off" spellCheck={false} />
          <PasswordField label="Password" />
        </FormDialog>
      }
      actions={(u) => (
        <>
          <FormDialog
            label="Change password"
            ariaLabel={`Change the password of ${u.username}`}
            title={`New password for ${u.username}`}
            submitLabel="Change password"
            submit={(data) => api.dbUsers.update(wg, id, { username: u.username, password: password(data) })}
            onDone={users.reload}
          >
            <PasswordField label="New password" />
          </FormDialog>
          <DeleteButton
            name={u.username}
            kind="user"
            ariaLabel={`Delete database user ${u.username}`}
            message={<p>The user can no longer sign in to this workspace.</p>}
            action={() => api.dbUsers.delete(wg, id, { username: u.username })}
            onDone={users.reload}
          />
        </>
      )}
    />
  );
}
