import { api } from '../api/endpoints.js';
import type { WorkspaceRecord } from '../api/types.js';
import { useLiveLoad } from '../ui/data.js';
import { ConfirmButton, DialogButton } from '../ui/dialog.js';
import { when } from '../ui/format.js';
import { Form, SubmitButton, TextField, text, useForm } from '../ui/forms.js';
import { Empty, LoadState, RowActions, Section } from '../ui/page.js';

const passwordHint = 'At least 12 characters, of 3 kinds: lower case, upper case, digits, symbols.';

function DbUserForm({ ws, username, done }: { ws: WorkspaceRecord; username?: string; done(): void }) {
  const form = useForm();
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        const body = { username: username ?? text(data, 'username') ?? '', password: text(data, 'password') ?? '' };
        if (username) await api.dbUsers.update(ws.workgroup_id ?? '', ws.workspace_id ?? '', body);
        else await api.dbUsers.create(ws.workgroup_id ?? '', ws.workspace_id ?? '', body);
        done();
      }}
    >
      {username ? null : <TextField name="username" label="User name" autoComplete="off" spellCheck={false} />}
      <TextField
        name="password"
        label={username ? 'New password' : 'Password'}
        type="password"
        autoComplete="new-password"
        hint={passwordHint}
      />
      <div className="actions">
        <SubmitButton>{username ? 'Change password' : 'Add user'}</SubmitButton>
      </div>
    </Form>
  );
}

/** Database users sign in to the workspace's endpoint; passwords are never shown again. */
export function DbUsersSection({ ws, canEdit }: { ws: WorkspaceRecord; canEdit: boolean }) {
  const wg = ws.workgroup_id ?? '';
  const id = ws.workspace_id ?? '';
  const users = useLiveLoad(
    `dbusers:${id}`,
    () => api.dbUsers.list(wg, id),
    (e) => e.workspace_id === id && e.resource_kind === 'db_user',
  );
  return (
    <Section
      title="Database users"
      actions={
        canEdit ? (
          <DialogButton label="Add user" title={`Add a database user to ${ws.name}`}>
            {(close) => (
              <DbUserForm
                ws={ws}
                done={() => {
                  close();
                  users.reload();
                }}
              />
            )}
          </DialogButton>
        ) : null
      }
    >
      <LoadState error={users.error} loading={!users.data}>
        {users.data?.length === 0 ? (
          <Empty>No database users.</Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">User name</th>
                <th scope="col">Created</th>
                <th scope="col">Password changed</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data?.map((u) => (
                <tr key={u.username}>
                  <td data-label="User name" className="strong">
                    {u.username}
                  </td>
                  <td data-label="Created" className="nowrap">
                    {when(u.created_at)}
                  </td>
                  <td data-label="Password changed" className="nowrap">
                    {when(u.updated_at)}
                  </td>
                  <RowActions>
                    {canEdit ? (
                      <>
                        <DialogButton
                          label="Change password"
                          ariaLabel={`Change the password of ${u.username}`}
                          title={`New password for ${u.username}`}
                        >
                          {(close) => (
                            <DbUserForm
                              ws={ws}
                              username={u.username}
                              done={() => {
                                close();
                                users.reload();
                              }}
                            />
                          )}
                        </DialogButton>
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete database user ${u.username}`}
                          title={`Delete ${u.username}?`}
                          message={<p>The user can no longer sign in to this workspace.</p>}
                          confirmLabel="Delete user"
                          danger
                          action={async () => {
                            await api.dbUsers.delete(wg, id, { username: u.username });
                            users.reload();
                          }}
                        />
                      </>
                    ) : null}
                  </RowActions>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadState>
    </Section>
  );
}
