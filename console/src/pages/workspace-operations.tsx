import { api } from '../api/endpoints.js';
import type { WorkspaceRecord } from '../api/types.js';
import { StatusBadge } from '../ui/badge.js';
import { useLiveLoad } from '../ui/data.js';
import { when } from '../ui/format.js';
import { Empty, LoadState, Section } from '../ui/page.js';

const stateLabel: Record<string, string> = {
  pending: 'Pending',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

/** The workspace's operations, newest first: what ran, how it ended, and why it failed. */
export function OperationsSection({ ws }: { ws: WorkspaceRecord }) {
  const id = ws.workspace_id ?? '';
  const ops = useLiveLoad(
    `ops:${id}`,
    () => api.operations.list({ resource_id: id, limit: 50 }),
    (e) => e.workspace_id === id || e.resource_id === id,
  );
  const list = [...(ops.data ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at));
  return (
    <Section title="Operations">
      <LoadState error={ops.error} loading={!ops.data}>
        {list.length === 0 ? (
          <Empty>No operations yet.</Empty>
        ) : (
          <ol className="timeline">
            {list.map((op) => (
              <li key={op.id}>
                <div className="timeline-head">
                  <span className="strong">{op.kind}</span>
                  <StatusBadge status={stateLabel[op.state] ?? op.state} />
                </div>
                <div className="muted small">
                  started {when(op.created_at)}
                  {op.finished_at ? ` · finished ${when(op.finished_at)}` : ''}
                  {op.attempt > 1 ? ` · attempt ${op.attempt} of ${op.max_attempts}` : ''}
                </div>
                {op.error ? <div className="error-text small">{op.error}</div> : null}
              </li>
            ))}
          </ol>
        )}
      </LoadState>
    </Section>
  );
}
