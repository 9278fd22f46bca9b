import { api } from '../api/endpoints.js';
import { ApiError } from '../api/http.js';
import type { BackupRecord, BackupScheduleRecord, WorkspaceRecord } from '../api/types.js';
import { StatusBadge } from '../ui/badge.js';
import { reloadAll, useLiveLoad } from '../ui/data.js';
import { ConfirmButton } from '../ui/dialog.js';
import { FormDialog } from '../ui/form-dialog.js';
import { bytes, when } from '../ui/format.js';
import { CheckboxField, TextField, checked, int, text } from '../ui/forms.js';
import { Empty, LoadState, Section } from '../ui/page.js';
import { ResourceTable, type TableOf } from '../ui/resource-table.js';

/** Sets the workspace's backup schedule, or changes the one it has. */
function BackupScheduleDialog({
  ws,
  current,
  onDone,
}: {
  ws: WorkspaceRecord;
  current: BackupScheduleRecord | undefined;
  onDone(): void;
}) {
  return (
    <FormDialog
      label={current ? 'Edit schedule' : 'Set schedule'}
      title={`Backup schedule of ${ws.name}`}
      submitLabel="Save schedule"
      submit={(data) =>
        api.backups.setSchedule(ws.workgroup_id ?? '', ws.workspace_id ?? '', {
          schedule: text(data, 'schedule'),
          max_backup_files: int(data, 'max_backup_files'),
          max_reserved_days: int(data, 'max_reserved_days'),
          max_retry: int(data, 'max_retry'),
          pause: checked(data, 'pause'),
        })
      }
      onDone={onDone}
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
    </FormDialog>
  );
}

const backupTable: TableOf<BackupRecord> = {
  key: (b) => b.id,
  empty: 'No backups yet.',
  sort: (a, b) => b.time.localeCompare(a.time),
  columns: [
    { label: 'Taken', className: 'nowrap', cell: (b) => when(b.time) },
    { label: 'Tag', cell: (b) => b.tag ?? <span className="muted">—</span> },
    { label: 'Status', cell: (b) => <StatusBadge status={b.status} /> },
    { label: 'Size', cell: (b) => (b.status === 'InProgress' ? '—' : bytes(b.size_bytes)) },
    { label: 'Kind', cell: (b) => (b.is_automatic ? 'automatic' : 'manual') },
  ],
};

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
  const reload = reloadAll(backups, schedule);
  return (
    <Section
      title="Backups"
      actions={
        canEdit && rw ? (
          <FormDialog
            label="Take backup"
            title={`Take a backup of ${ws.name}`}
            submitLabel="Take backup"
            submit={(data) => {
              const tag = text(data, 'tag');
              return api.backups.create(wg, id, tag ? { tag } : {});
            }}
            onDone={reload}
          >
            <TextField name="tag" label="Tag" hint="Optional: a label to find this backup by." />
          </FormDialog>
        ) : null
      }
    >
      {!rw ? (
        <p className="muted">Read-only workspaces are not backed up; their database's read-write workspace is.</p>
      ) : null}
      {rw ? (
        <ResourceTable
          of={backupTable}
          list={backups}
          actions={(b) => (
            <>
              {canEdit && b.status === 'Succeeded' ? (
                <ConfirmButton
                  label="Restore"
                  ariaLabel={`Restore backup of ${when(b.time)}`}
                  title="Restore this backup?"
                  message={
                    <p>
                      The workspace's graph is replaced by the backup of {when(b.time)}. The workspace is Restoring
                      meanwhile.
                    </p>
                  }
                  confirmLabel="Restore backup"
                  action={() => api.backups.restore(wg, id, { backup_id: b.id })}
                  onDone={reload}
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
                  action={() => api.backups.delete(wg, id, { backup_id: b.id })}
                  onDone={reload}
                />
              ) : null}
            </>
          )}
        />
      ) : null}
      {rw ? (
        <div className="subsection">
          <div className="card-head">
            <h3>Backup schedule</h3>
            {canEdit && schedule.data !== undefined ? (
              <div className="actions">
                <BackupScheduleDialog ws={ws} current={schedule.data ?? undefined} onDone={reload} />
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
