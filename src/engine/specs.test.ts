import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultCatalog } from '../domain/catalog.js';
import { newWorkspace, type Workspace } from '../store/models/workspace.js';
import { SpecError, observedChanges, workspaceSpec } from './specs.js';

const row = (over: Partial<Workspace>): Workspace =>
  newWorkspace(
    {
      id: 'ws',
      org_id: 'org',
      workgroup_id: 'wg',
      database_id: 'db',
      name: 'ws',
      size: 'TG-1',
      status: 'Active',
      condition_type: 'Normal',
      tg_version: '4.2.0',
      graph_topology_size_bytes: 10,
      ...over,
    },
    0,
  );

describe('workspace specs', () => {
  it('asks for the desired size and HA, resolved from the catalog, and gives back what runs', () => {
    const spec = workspaceSpec(row({ desired_size: 'TG-16', desired_enable_ha: true }), defaultCatalog);
    assert.deepEqual(spec.size, { name: 'TG-16', cpu: 128, memoryGb: 1024, partitions: 2 });
    assert.equal(spec.replicas, 2);
    assert.deepEqual(spec.observed, {
      size: { name: 'TG-1', cpu: 8, memoryGb: 64, partitions: 1 },
      replicas: 1,
      version: '4.2.0',
      topologyBytes: 10,
      endpoint: null,
    });
  });

  it('is what runs when nothing more is asked, and read-only for a read-only workspace', () => {
    const spec = workspaceSpec(row({ is_rw: false, enable_ha: true }), defaultCatalog);
    assert.deepEqual([spec.size.name, spec.replicas, spec.version, spec.readOnly], ['TG-1', 3, '4.2.0', true]);
  });

  it('asks for the version an upgrade moves to', () => {
    const spec = workspaceSpec(row({ is_rw: false, enable_ha: true, upgrade_tg_version: '4.2.1' }), defaultCatalog);
    assert.deepEqual([spec.size.name, spec.replicas, spec.version, spec.readOnly], ['TG-1', 3, '4.2.1', true]);
  });

  it('cannot be built for a size the catalog no longer has', () => {
    assert.throws(() => workspaceSpec(row({ desired_size: 'TG-999' }), defaultCatalog), SpecError);
  });

  it('records a report: what runs, the data, and counts only once reported', () => {
    assert.deepEqual(
      observedChanges({ size: { name: 'TG-2', cpu: 16, memoryGb: 128, partitions: 1 }, replicas: 2 }, 5),
      { size: 'TG-2', enable_ha: true },
    );
    assert.deepEqual(observedChanges({ vertexCount: 3, edgeCount: 1, endpoint: '127.0.0.1:4000' }, 5), {
      vertex_count: 3,
      edge_count: 1,
      data_observed_at: 5,
      endpoint: '127.0.0.1:4000',
    });
    assert.deepEqual(observedChanges({}, 5), {});
  });
});
