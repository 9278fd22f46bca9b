import { useState } from 'react';
import { api } from '../api/endpoints.js';
import type { ScheduleBody, ScheduleRecord, WorkspaceRecord } from '../api/types.js';
import { useSession } from '../session.js';
import { useLiveLoad } from '../ui/data.js';
import { ConfirmButton, DialogButton } from '../ui/dialog.js';
import { when } from '../ui/format.js';
import { Form, SelectField, SubmitButton, TextField, text, useForm } from '../ui/forms.js';
import { Empty, LoadState, RowActions, Section } from '../ui/page.js';
import { sizeOptions } from './workgroup.js';

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function ScheduleForm({ ws, done }: { ws: WorkspaceRecord; done(): void }) {
  const { meta } = useSession();
  const form = useForm();
  const [action, setAction] = useState('resize');
  const [repeat, setRepeat] = useState('daily');
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        await api.schedules.create(ws.workgroup_id ?? '', ws.workspace_id ?? '', {
          workspace_id: ws.workspace_id ?? '',
          action: text(data, 'action') as ScheduleBody['action'],
          repeat: (text(data, 'repeat') ?? '') as ScheduleBody['repeat'],
          ...(repeat === 'weekly' ? { repeat_on: text(data, 'repeat_on') } : {}),
          ...(repeat === 'once' ? { date: text(data, 'date') } : {}),
          time: text(data, 'time') ?? '',
          timezone: text(data, 'timezone') ?? '',
          ...(action === 'resize' ? { workspace_type_name: text(data, 'workspace_type_name') } : {}),
        });
        done();
      }}
    >
      <SelectField
        name="action"
        label="Action"
        options={[
          { value: 'resize', label: 'Resize' },
          { value: 'pause', label: 'Pause' },
          { value: 'resume', label: 'Resume' },
        ]}
        defaultValue={action}
        onChange={setAction}
      />
      {action === 'resize' ? (
        <SelectField
          name="workspace_type_name"
          label="To size"
          options={sizeOptions(meta, ws.workspace_type?.typeName)}
          defaultValue={ws.workspace_type?.typeName}
        />
      ) : null}
      <SelectField
        name="repeat"
        label="Repeat"
        options={[
          { value: 'daily', label: 'Every day' },
          { value: 'weekdays', label: 'Monday to Friday' },
          { value: 'weekly', label: 'On some days of the week' },
          { value: 'once', label: 'Once' },
        ]}
        defaultValue={repeat}
        onChange={setRepeat}
      />
      {repeat === 'weekly' ? <TextField name="repeat_on" label="Days" hint="e.g. Mon,Wed,Fri" /> : null}
      {repeat === 'once' ? <TextField name="date" label="Date" type="date" /> : null}
      <TextField name="time" label="Time (24 h)" type="time" defaultValue="20:00" />
      <TextField name="timezone" label="Time zone" defaultValue={localZone} hint="An IANA name, e.g. Europe/Berlin." />
      <div className="actions">
        <SubmitButton>Add schedule</SubmitButton>
      </div>
    </Form>
  );
}

function describeSchedule(s: ScheduleRecord): string {
  const days =
    s.repeat === 'daily'
      ? 'every day'
      : s.repeat === 'weekdays'
        ? 'Monday to Friday'
        : s.repeat === 'weekly'
          ? `every ${s.repeat_on}`
          : `on ${s.date}`;
  return `${days} at ${s.time} ${s.timezone}`;
}

export function SchedulesSection({ ws, canEdit }: { ws: WorkspaceRecord; canEdit: boolean }) {
  const wg = ws.workgroup_id ?? '';
  const id = ws.workspace_id ?? '';
  const schedules = useLiveLoad(
    `schedules:${id}`,
    () => api.schedules.list(wg, id),
    (e) => e.workspace_id === id && e.resource_kind === 'schedule',
  );
  return (
    <Section
      title="Schedules"
      actions={
        canEdit ? (
          <DialogButton label="Add schedule" title={`Schedule an action on ${ws.name}`}>
            {(close) => (
              <ScheduleForm
                ws={ws}
                done={() => {
                  close();
                  schedules.reload();
                }}
              />
            )}
          </DialogButton>
        ) : null
      }
    >
      <LoadState error={schedules.error} loading={!schedules.data}>
        {schedules.data?.length === 0 ? (
          <Empty>Nothing is scheduled.</Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Action</th>
                <th scope="col">When</th>
                <th scope="col">Next run</th>
                <th scope="col">Last run</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {schedules.data?.map((s) => (
                <tr key={s.id}>
                  <td data-label="Action">
                    {s.action === 'resize'
                      ? `Resize to ${s.workspace_type_name}`
                      : s.action === 'pause'
                        ? 'Pause'
                        : 'Resume'}
                  </td>
                  <td data-label="When">{describeSchedule(s)}</td>
                  <td data-label="Next run" className="nowrap">
                    {when(s.next_run_at)}
                  </td>
                  <td data-label="Last run">
                    {s.last_run ? `${when(s.last_run.fired_at)}: ${s.last_run.outcome}` : '—'}
                    {s.last_run?.reason ? <div className="muted small">{s.last_run.reason}</div> : null}
                  </td>
                  <RowActions>
                    {canEdit ? (
                      <ConfirmButton
                        label="Delete"
                        ariaLabel={`Delete schedule ${describeSchedule(s)}`}
                        title="Delete this schedule?"
                        message={<p>It no longer runs {describeSchedule(s)}.</p>}
                        confirmLabel="Delete schedule"
                        danger
                        action={async () => {
                          await api.schedules.delete(wg, id, s.id);
                          schedules.reload();
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
    </Section>
  );
}
