import { useState } from 'react';
import { api } from '../api/endpoints.js';
import type { ScheduleBody, ScheduleRecord, WorkspaceRecord } from '../api/types.js';
import { useSession } from '../session.js';
import { useWorkspaceRecords } from '../ui/data.js';
import { ConfirmButton } from '../ui/dialog.js';
import { FormDialog } from '../ui/form-dialog.js';
import { when } from '../ui/format.js';
import { SelectField, TextField, choices, text } from '../ui/forms.js';
import { Note, ResourceTable, type TableOf } from '../ui/resource-table.js';
import { sizeOptions } from './workgroup.js';

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The fields of a schedule: the size asked for follows the action, the days the repeat. */
function ScheduleFields({ ws }: { ws: WorkspaceRecord }) {
  const { meta } = useSession();
  const [action, setAction] = useState('resize');
  const [repeat, setRepeat] = useState('daily');
  return (
    <>
      <SelectField
        name="action"
        label="Action"
        options={choices({ resize: 'Resize', pause: 'Pause', resume: 'Resume' })}
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
        options={choices({
          daily: 'Every day',
          weekdays: 'Monday to Friday',
          weekly: 'On some days of the week',
          once: 'Once',
        })}
        defaultValue={repeat}
        onChange={setRepeat}
      />
      {repeat === 'weekly' ? <TextField name="repeat_on" label="Days" hint="e.g. Mon,Wed,Fri" /> : null}
      {repeat === 'once' ? <TextField name="date" label="Date" type="date" /> : null}
      <TextField name="time" label="Time (24 h)" type="time" defaultValue="20:00" />
      <TextField name="timezone" label="Time zone" defaultValue={localZone} hint="An IANA name, e.g. Europe/Berlin." />
    </>
  );
}

/** A schedule as the form gave it; a field the form did not show (the date of a daily one) is not sent. */
function scheduleBody(ws: WorkspaceRecord, data: FormData): ScheduleBody {
  const repeat = text(data, 'repeat') ?? '';
  return {
    workspace_id: ws.workspace_id ?? '',
    action: text(data, 'action') as ScheduleBody['action'],
    repeat: repeat as ScheduleBody['repeat'],
    ...(repeat === 'weekly' ? { repeat_on: text(data, 'repeat_on') } : {}),
    ...(repeat === 'once' ? { date: text(data, 'date') } : {}),
    time: text(data, 'time') ?? '',
    timezone: text(data, 'timezone') ?? '',
    ...(text(data, 'action') === 'resize' ? { workspace_type_name: text(data, 'workspace_type_name') } : {}),
  };
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

const scheduleTable: TableOf<ScheduleRecord> = {
  key: (s) => s.id,
  empty: 'Nothing is scheduled.',
  columns: [
    {
      label: 'Action',
      cell: (s) =>
        s.action === 'resize' ? `Resize to ${s.workspace_type_name}` : s.action === 'pause' ? 'Pause' : 'Resume',
    },
    { label: 'When', cell: describeSchedule },
    { label: 'Next run', className: 'nowrap', cell: (s) => when(s.next_run_at) },
    {
      label: 'Last run',
      cell: (s) => (
        <>
          {s.last_run ? `${when(s.last_run.fired_at)}: ${s.last_run.outcome}` : '—'}
          <Note>{s.last_run?.reason}</Note>
        </>
      ),
    },
  ],
};

export function SchedulesSection({ ws, canEdit }: { ws: WorkspaceRecord; canEdit: boolean }) {
  const wg = ws.workgroup_id ?? '';
  const id = ws.workspace_id ?? '';
  const schedules = useWorkspaceRecords(ws, 'schedule', api.schedules.list);
  return (
    <ResourceTable
      title="Schedules"
      of={scheduleTable}
      list={schedules}
      canEdit={canEdit}
      add={
        <FormDialog
          label="Add schedule"
          title={`Schedule an action on ${ws.name}`}
          submitLabel="Add schedule"
          submit={(data) => api.schedules.create(wg, id, scheduleBody(ws, data))}
          onDone={schedules.reload}
        >
          <ScheduleFields ws={ws} />
        </FormDialog>
      }
      actions={(s) => (
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete schedule ${describeSchedule(s)}`}
          title="Delete this schedule?"
          message={<p>It no longer runs {describeSchedule(s)}.</p>}
          confirmLabel="Delete schedule"
          danger
          action={() => api.schedules.delete(wg, id, s.id)}
          onDone={schedules.reload}
        />
      )}
    />
  );
}
