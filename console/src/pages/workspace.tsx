import { useConsoleConfig } from '../api/config.js';
import { api } from '../api/endpoints.js';
import type { WorkspaceRecord } from '../api/types.js';
import { Link, navigate, useTitle } from '../router.js';
import { useSession } from '../session.js';
import { StatusBadge } from '../ui/badge.js';
import { useLiveLoad } from '../ui/data.js';
import { Copyable } from '../ui/copy.js';
import { ConfirmButton } from '../ui/dialog.js';
import { FormDialog } from '../ui/form-dialog.js';
import { bytes, maintenanceWindow, when } from '../ui/format.js';
import { LoadState, PageHeader, Section } from '../ui/page.js';
import { sizeOptions } from './workgroup.js';
import { BackupsSection } from './workspace-backups.js';
import { DbUsersSection } from './workspace-db-users.js';
import { GraphTab } from './workspace-graph.js';
import { OperationsSection } from './workspace-operations.js';
import { SchedulesSection } from './workspace-schedules.js';
import { ConnectSection, workspaceGatewayUrl } from './workspace-connect.js';
import { SettingsDialog } from './workspace-settings.js';
import { CheckboxField, SelectField, checked, text } from '../ui/forms.js';
import { GRAPH_RUN_ACTION } from '../../../src/schemas/access.js';

const stable = ['Active', 'Stopped', 'Idle', 'Failed'];

/** A count the server observed, or "—" when it has none (a workspace without a data plane). */
function count(n: number | undefined): string {
  return n === undefined ? '—' : n.toLocaleString('en');
}

function ResizeDialog({ ws, onDone }: { ws: WorkspaceRecord; onDone(): void }) {
  const { meta } = useSession();
  return (
    <FormDialog
      label="Resize"
      title={`Resize ${ws.name}`}
      submitLabel="Apply"
      submit={(data) => {
        const size = text(data, 'workspace_type_name');
        const ha = checked(data, 'enable_ha');
        return api.workspaces.update(ws.workgroup_id ?? '', ws.workspace_id ?? '', {
          ...(size !== ws.workspace_type?.typeName ? { workspace_type_name: size } : {}),
          ...(ha !== Boolean(ws.enable_ha) ? { enable_ha: ha } : {}),
        });
      }}
      onDone={onDone}
    >
      <SelectField
        name="workspace_type_name"
        label="Size"
        options={sizeOptions(meta, ws.workspace_type?.typeName)}
        defaultValue={ws.workspace_type?.typeName}
      />
      <CheckboxField name="enable_ha" label="High availability (two replicas)" defaultChecked={ws.enable_ha} />
      <p className="muted">The workspace is Updating while the change runs, and Active again after.</p>
    </FormDialog>
  );
}

function Overview({ ws }: { ws: WorkspaceRecord }) {
  const enabledAddons = (ws.addons ?? []).filter((a) => a.enable);
  const type = ws.workspace_type;
  const config = useConsoleConfig();
  const endpoint = workspaceGatewayUrl(config?.gateway_url, ws.workspace_id ?? '');
  const rows: Array<[string, React.ReactNode]> = [
    ['Id', <Copyable key="id" text={ws.workspace_id ?? ''} label="workspace id" testId="workspace-id" />],
    [
      'Gateway URL',
      endpoint ? (
        <code key="url" data-testid="workspace-gateway-url">
          {endpoint}
        </code>
      ) : (
        '—'
      ),
    ],
    // proxy_host and nginx_host are the same host under two names: shown once.
    ['Host', <code key="host">{ws.proxy_host}</code>],
    ['Size', type ? `${type.typeName} · ${type.cpu} vCPU · ${type.memory} · ${type.partition} partition(s)` : '—'],
    ['High availability', ws.enable_ha ? `On (${ws.replicas ?? 2} replicas)` : 'Off'],
    ['Mode', ws.is_rw === false ? 'Read-only' : 'Read-write'],
    ['Database', ws.database_name ?? '—'],
    [
      'Version',
      ws.desired_tg_version && ws.desired_tg_version !== ws.tg_version
        ? `${ws.tg_version} (upgrade to ${ws.desired_tg_version} pending)`
        : (ws.tg_version ?? '—'),
    ],
    ['Region', ws.region ?? '—'],
    [
      'Maintenance window',
      maintenanceWindow(
        ws.maintenance_window_day_of_week,
        ws.maintenance_window_hour_of_day,
        ws.maintenance_window_interval_weeks,
        ws.maintenance_window_time_zone,
      ),
    ],
    ['Auto-stop', ws.auto_stop_minutes ? `after ${ws.auto_stop_minutes} idle minutes` : 'Off'],
    ['Auto-start', ws.enable_auto_start ? 'On' : 'Off'],
    ['Add-ons', enabledAddons.length ? enabledAddons.map((a) => a.unique_name ?? a.addons_id).join(', ') : 'None'],
    ['Vertices', <span data-testid="workspace-vertices">{count(ws.vertex_count)}</span>],
    ['Edges', <span data-testid="workspace-edges">{count(ws.edge_count)}</span>],
    ['Graph size', bytes(ws.graph_topology_size_bytes)],
    ['Created', when(ws.created_at)],
  ];
  return (
    <Section title="Overview">
      {ws.err_message ? (
        <div className="banner banner-error">
          <p>{ws.err_message}</p>
        </div>
      ) : null}
      <dl className="facts">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

/** The page's tabs, each its own path: `/workgroups/:wg/workspaces/:ws[/graph]`. */
export type WorkspaceTab = 'overview' | 'graph';

function Tabs({ base, tab }: { base: string; tab: WorkspaceTab }) {
  const tabs: Array<[WorkspaceTab, string, string]> = [
    ['overview', 'Overview', base],
    ['graph', 'Graph', `${base}/graph`],
  ];
  return (
    <nav className="tabs" aria-label="Workspace">
      {tabs.map(([key, label, to]) => (
        <Link key={key} to={to} aria-current={key === tab ? 'page' : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}

export function WorkspacePage({ wg, ws: id, tab = 'overview' }: { wg: string; ws: string; tab?: WorkspaceTab }) {
  const session = useSession();
  const loaded = useLiveLoad(
    `ws:${wg}/${id}`,
    () => api.workspaces.get(wg, id),
    (e) => e.workspace_id === id || e.resource_id === id,
  );
  const ws = loaded.data;
  useTitle(ws?.name ?? 'Workspace');
  const target = { workgroupId: wg, workspaceId: id };
  const canEdit = session.can('workspace:edit', target);
  const status = ws?.status ?? '';
  const act = (action: 'pause' | 'resume' | 'refresh') => () => api.workspaces[action](wg, id);
  const wgLink = `/workgroups/${encodeURIComponent(wg)}`;
  const pagePath = `${wgLink}/workspaces/${encodeURIComponent(id)}`;
  return (
    <>
      <PageHeader
        title={ws?.name ?? 'Workspace'}
        crumbs={[
          { label: 'Workgroups', to: '/workgroups' },
          { label: ws?.workgroup_name ?? 'Workgroup', to: wgLink },
          { label: ws?.name ?? id },
        ]}
        badge={
          ws ? (
            <span aria-live="polite" data-testid="workspace-status">
              <StatusBadge status={ws.status} />
            </span>
          ) : null
        }
        actions={
          ws ? (
            <>
              {canEdit && status === 'Active' ? (
                <ConfirmButton
                  label="Pause"
                  title={`Pause ${ws.name}?`}
                  message={<p>The workspace stops serving requests until it is resumed. Its data is kept.</p>}
                  confirmLabel="Pause workspace"
                  action={act('pause')}
                  onDone={loaded.reload}
                />
              ) : null}
              {canEdit && ['Stopped', 'Idle', 'Failed'].includes(status) ? (
                <ConfirmButton
                  label="Resume"
                  title={`Resume ${ws.name}?`}
                  message={
                    <p>{status === 'Failed' ? 'The failed operation runs again.' : 'The workspace starts again.'}</p>
                  }
                  confirmLabel="Resume workspace"
                  action={act('resume')}
                  onDone={loaded.reload}
                />
              ) : null}
              {canEdit && status === 'Active' && ws.is_rw !== false ? (
                <ResizeDialog ws={ws} onDone={loaded.reload} />
              ) : null}
              {canEdit && status === 'Active' && ws.is_rw === false ? (
                <ConfirmButton
                  label="Refresh"
                  title={`Refresh ${ws.name}?`}
                  message={<p>The read-only workspace takes the latest data of its database.</p>}
                  confirmLabel="Refresh workspace"
                  action={act('refresh')}
                  onDone={loaded.reload}
                />
              ) : null}
              {canEdit ? <SettingsDialog ws={ws} onDone={loaded.reload} /> : null}
              {session.can('workspace:delete', target) && stable.includes(status) ? (
                <ConfirmButton
                  label="Delete"
                  title={`Delete ${ws.name}?`}
                  message={<p>The workspace and its backups and schedules are deleted. This cannot be undone.</p>}
                  confirmLabel="Delete workspace"
                  danger
                  action={() => api.workspaces.delete(wg, id)}
                  onDone={() => navigate(wgLink)}
                />
              ) : null}
            </>
          ) : null
        }
      />
      <LoadState error={loaded.error} loading={!ws}>
        {ws && tab === 'graph' ? (
          <>
            <Tabs base={pagePath} tab={tab} />
            <GraphTab ws={ws} canRun={session.can(GRAPH_RUN_ACTION, target)} />
          </>
        ) : ws ? (
          <>
            <Tabs base={pagePath} tab={tab} />
            <div className="grid">
              <Overview ws={ws} />
              <OperationsSection ws={ws} />
            </div>
            <div className="stack">
              <ConnectSection ws={ws} />
              <BackupsSection ws={ws} canEdit={canEdit} />
              <SchedulesSection ws={ws} canEdit={canEdit} />
              <DbUsersSection ws={ws} canEdit={canEdit} />
            </div>
          </>
        ) : null}
      </LoadState>
    </>
  );
}
