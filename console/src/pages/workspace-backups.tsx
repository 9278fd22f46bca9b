import { api } from '../api/endpoints.js';
import { ApiError } from '../api/http.js';
import type { BackupScheduleRecord, WorkspaceRecord } from '../api/types.js';
import { StatusBadge } from '../ui/badge.js';
import { useLiveLoad } from '../ui/data.js';
import { ConfirmButton, DialogButton } from '../ui/dialog.js';
import { bytes, when } from '../ui/format.js';
import { CheckboxField, Form, SubmitButton, TextField, checked, int, text, useForm } from '../ui/forms.js';
import { Empty, LoadState, RowActions, Section } from '../ui/page.js';

function TakeBackupForm({ ws, done }: { ws: WorkspaceRecord; done(): void }) {
  const form = useForm();
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        const tag = text(data, 'tag');
        await api.backups.create(ws.workgroup_id ?? '', ws.workspace_id ?? '', tag ? { tag } : {});
        done();
      }}
    >
      <TextField name="tag" label="Tag" hint="Optional: a label to find this backup by." />
      <div className="actions">
        <SubmitButton>Take backup</SubmitButton>
      </div>
    </Form>
  );
}

function BackupScheduleForm({
  ws,
  current,
  done,
}: {
  ws: WorkspaceRecord;
  current: BackupScheduleRecord | undefined;
  done(): void;
}) {
  const form = useForm();
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        await api.backups.setSchedule(ws.workgroup_id ?? '', ws.workspace_id ?? '', {
          schedule: text(data, 'schedule'),
          max_backup_files: int(data, 'max_backup_files'),
          max_reserved_days: int(data, 'max_reserved_days'),
          max_retry: int(data, 'max_retry'),
          pause: checked(data, 'pause'),
        });
        done();
      }}
    >
      <TextField
        name="schedule"
        label="When (cron, UTC)"
        defaultValue={current?.schedule ?? '0 3 * * *'}
        hint="Five fields: minute hour day-of-month month day-of-week, e.g. 0 3 * * * for 03:00 every day."
        spellCheck={false}
      />
      <TextField
        name="max_backup_files"
        label="Automatic backups kept"
        inputMode="numeric"
        defaultValue={current?.max_backup_files}
      />
      <TextField
        name="max_reserved_days"
        label="Delete automatic backups after (days)"
        inputMode="numeric"
        defaultValue={current?.max_reserved_days}
      />
      <TextField
        name="max_retry"
        label="Retries of a failed backup"
        inputMode="numeric"
        defaultValue={current?.max_retry}
      />
      <CheckboxField
        name="pause"
        label="Paused (no new backups; retention still applies)"
        defaultChecked={current?.pause}
      />
      <div className="actions">
        <SubmitButton>Save schedule</SubmitButton>
      </div>
    </Form>
  );
}

export function BackupsSection({ ws, canEdit }: { ws: WorkspaceRecord; canEdit: boolean }) {
  const wg = ws.workgroup_id ?? '';
  const id = ws.workspace_id ?? '';
  const relevant = (e: { workspace_id?: string; resource_id: string }) => e.workspace_id === id || e.resource_id === id;
  const backups = useLiveLoad(`backups:${id}`, () => api.backups.list(wg, id), relevant);
  // No schedule yet is a 404: shown as "none", not as an error.
  const schedule = useLiveLoad(
    `backup-schedule:${id}`,
    () =>
      api.backups
        .getSchedule(id)
        .catch((err) => (err instanceof ApiError && err.status === 404 ? null : Promise.reject(err))),
    relevant,
  );
  const rw = ws.is_rw !== false;
  const list = [...(backups.data ?? [])].sort((a, b) => b.time.localeCompare(a.time));
  const reload = () => {
    backups.reload();
    schedule.reload();
  };
  return (
    <Section
      title="Backups"
      actions={
        canEdit && rw ? (
          <DialogButton label="Take backup" title={`Take a backup of ${ws.name}`}>
            {(close) => (
              <TakeBackupForm
                ws={ws}
                done={() => {
                  close();
                  reload();
                }}
              />
            )}
          </DialogButton>
        ) : null
      }
    >
      {!rw ? (
        <p className="muted">Read-only workspaces are not backed up; their database's read-write workspace is.</p>
      ) : null}
      {rw ? (
        <LoadState error={backups.error} loading={!backups.data}>
          {list.length === 0 ? (
            <Empty>No backups yet.</Empty>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Taken</th>
                  <th scope="col">Tag</th>
                  <th scope="col">Status</th>
                  <th scope="col">Size</th>
                  <th scope="col">Kind</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((b) => (
                  <tr key={b.id}>
                    <td data-label="Taken" className="nowrap">
                      {when(b.time)}
                    </td>
                    <td data-label="Tag">{b.tag ?? <span className="muted">—</span>}</td>
                    <td data-label="Status">
                      <StatusBadge status={b.status} />
                    </td>
                    <td data-label="Size">{b.status === 'InProgress' ? '—' : bytes(b.size_bytes)}</td>
                    <td data-label="Kind">{b.is_automatic ? 'automatic' : 'manual'}</td>
                    <RowActions>
                      {canEdit && b.status === 'Succeeded' ? (
                        <ConfirmButton
                          label="Restore"
                          ariaLabel={`Restore backup of ${when(b.time)}`}
                          title="Restore this backup?"
                          message={
                            <p>
                              The workspace's graph is replaced by the backup of {when(b.time)}. The workspace is
                              Restoring meanwhile.
                            </p>
                          }
                          confirmLabel="Restore backup"
                          action={async () => {
                            await api.backups.restore(wg, id, { backup_id: b.id });
                            reload();
                          }}
                        />
                      ) : null}
                      {canEdit && b.status !== 'InProgress' ? (
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete backup of ${when(b.time)}`}
                          title="Delete this backup?"
                          message={<p>The backup of {when(b.time)} is deleted for good.</p>}
                          confirmLabel="Delete backup"
                          danger
                          action={async () => {
                            await api.backups.delete(wg, id, { backup_id: b.id });
                            reload();
                          }}
                        />
                      ) : null}
                    </RowActions>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </LoadState>
      ) : null}
      {rw ? (
        <div className="subsection">
          <div className="card-head">
            <h3>Backup schedule</h3>
            {canEdit && schedule.data !== undefined ? (
              <div className="actions">
                <DialogButton
                  label={schedule.data ? 'Edit schedule' : 'Set schedule'}
                  title={`Backup schedule of ${ws.name}`}
                >
                  {(close) => (
                    <BackupScheduleForm
                      ws={ws}
                      current={schedule.data ?? undefined}
                      done={() => {
                        close();
                        reload();
                      }}
                    />
                  )}
                </DialogButton>
              </div>
            ) : null}
          </div>
          <LoadState error={schedule.error} loading={schedule.data === undefined}>
            {schedule.data ? (
              <dl className="facts">
                <div>
                  <dt>When</dt>
                  <dd>
                    <code>{schedule.data.schedule}</code> UTC{schedule.data.pause ? ' (paused)' : ''}
                  </dd>
                </div>
                <div>
                  <dt>Keeps</dt>
                  <dd>
                    {schedule.data.max_backup_files} backups, at most {schedule.data.max_reserved_days} days
                  </dd>
                </div>
                <div>
                  <dt>Next run</dt>
                  <dd>{when(schedule.data.next_run_at)}</dd>
                </div>
                <div>
                  <dt>Last run</dt>
                  <dd>
                    {schedule.data.last_run_at
                      ? `${when(schedule.data.last_run_at)}: ${schedule.data.last_run_outcome}` +
                        (schedule.data.last_run_reason ? ` (${schedule.data.last_run_reason})` : '')
                      : '—'}
                  </dd>
                </div>
              </dl>
            ) : (
              <Empty>No automatic backups are scheduled.</Empty>
            )}
          </LoadState>
        </div>
      ) : null}
    </Section>
  );
}
