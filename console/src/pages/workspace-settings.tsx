import { api } from '../api/endpoints.js';
import type { UpdateWorkspaceBody, WorkspaceRecord } from '../api/types.js';
import { useLoad } from '../ui/data.js';
import { DialogButton } from '../ui/dialog.js';
import { DialogForm } from '../ui/form-dialog.js';
import { CheckboxField, SelectField, TextField, checked, int, text } from '../ui/forms.js';
import { weekdays } from '../ui/format.js';

type AddonRefs = NonNullable<UpdateWorkspaceBody['addons']>;

/**
 * The workspace's whole add-on list after the form, or undefined when no box changed. An
 * update's `addons` replaces the list, so every ref the workspace has is sent again, with its
 * configuration, whether or not the form shows a box for it; a box only sets `enable`.
 */
function addonsAfter(ws: WorkspaceRecord, boxes: ReadonlyMap<string, boolean>): AddonRefs | undefined {
  const current = ws.addons ?? [];
  const enabled = (id: string) => current.some((a) => a.addons_id === id && a.enable);
  if (![...boxes].some(([id, on]) => on !== enabled(id))) return undefined;
  const kept = current.map((a) => ({
    addons_id: a.addons_id,
    enable: boxes.get(a.addons_id) ?? a.enable,
    ...(a.enable_configuration !== undefined ? { enable_configuration: a.enable_configuration } : {}),
  }));
  const added = [...boxes]
    .filter(([id, on]) => on && !current.some((a) => a.addons_id === id))
    .map(([id]) => ({ addons_id: id, enable: true }));
  return [...kept, ...added];
}

/** What may change in any state: maintenance window, auto-stop and auto-start, add-ons. */
function SettingsForm({ ws, done }: { ws: WorkspaceRecord; done(): void }) {
  const catalog = useLoad('addon-catalog', api.addons.catalog);
  const usable = (catalog.data ?? []).filter((a) => a.installed && a.enabled);
  const enabled = new Set((ws.addons ?? []).filter((a) => a.enable).map((a) => a.addons_id));
  return (
    <DialogForm
      submitLabel="Save settings"
      submit={(data) => {
        const addons = addonsAfter(
          ws,
          new Map(usable.map((a) => [a.addons_id, checked(data, `addon:${a.addons_id}`)])),
        );
        const name = text(data, 'workspace_name');
        return api.workspaces.update(ws.workgroup_id ?? '', ws.workspace_id ?? '', {
          ...(name !== ws.name ? { workspace_name: name ?? '' } : {}),
          maintenance_window_day_of_week: int(data, 'maintenance_window_day_of_week'),
          maintenance_window_hour_of_day: int(data, 'maintenance_window_hour_of_day'),
          maintenance_window_interval_weeks: int(data, 'maintenance_window_interval_weeks'),
          maintenance_window_time_zone: text(data, 'maintenance_window_time_zone'),
          auto_stop_minutes: int(data, 'auto_stop_minutes') ?? 0,
          enable_auto_start: checked(data, 'enable_auto_start'),
          ...(addons ? { addons } : {}),
        });
      }}
      onDone={done}
    >
      <TextField name="workspace_name" label="Name" defaultValue={ws.name} />
      <fieldset>
        <legend>Maintenance window</legend>
        <div className="row">
          <SelectField
            name="maintenance_window_day_of_week"
            label="Day"
            options={weekdays.map((d, i) => ({ value: String(i), label: d }))}
            defaultValue={String(ws.maintenance_window_day_of_week ?? 0)}
          />
          <SelectField
            name="maintenance_window_hour_of_day"
            label="Hour"
            options={Array.from({ length: 24 }, (_, h) => ({
              value: String(h),
              label: `${String(h).padStart(2, '0')}:00`,
            }))}
            defaultValue={String(ws.maintenance_window_hour_of_day ?? 2)}
          />
          <SelectField
            name="maintenance_window_interval_weeks"
            label="Every"
            options={[1, 2, 3, 4].map((w) => ({ value: String(w), label: w === 1 ? 'week' : `${w} weeks` }))}
            defaultValue={String(ws.maintenance_window_interval_weeks ?? 1)}
          />
        </div>
        <TextField
          name="maintenance_window_time_zone"
          label="Time zone"
          defaultValue={ws.maintenance_window_time_zone ?? 'UTC'}
          hint="An IANA name, e.g. Europe/Berlin."
        />
      </fieldset>
      <TextField
        name="auto_stop_minutes"
        label="Auto-stop after idle minutes"
        inputMode="numeric"
        defaultValue={ws.auto_stop_minutes ?? 0}
        hint="0: never stop by itself."
      />
      <CheckboxField
        name="enable_auto_start"
        label="Start automatically when a request arrives"
        defaultChecked={ws.enable_auto_start}
      />
      <fieldset>
        <legend>Add-ons</legend>
        {usable.length === 0 ? (
          <p className="muted small">No add-on is installed and enabled for the organisation.</p>
        ) : (
          usable.map((a) => (
            <CheckboxField
              key={a.addons_id}
              name={`addon:${a.addons_id}`}
              label={a.title}
              defaultChecked={enabled.has(a.addons_id)}
            />
          ))
        )}
      </fieldset>
    </DialogForm>
  );
}

/**
 * The workspace's Settings button and dialog. Not a FormDialog: which add-ons the form shows
 * (and so what it sends) is loaded inside the dialog, with the form.
 */
export function SettingsDialog({ ws, onDone }: { ws: WorkspaceRecord; onDone(): void }) {
  return (
    <DialogButton label="Settings" title={`Settings of ${ws.name}`}>
      {(close) => (
        <SettingsForm
          ws={ws}
          done={() => {
            close();
            onDone();
          }}
        />
      )}
    </DialogButton>
  );
}
