import { Type } from '@sinclair/typebox';
import { Ref } from '../component.js';
import { WorkgroupMetric } from '../metrics.js';
import { WorkgroupParams } from '../workgroup.js';
import { WorkspaceParams } from '../workspace.js';
import { endpoint } from './spec.js';

const tags = ['Metrics'] as const;

/** The real service's metrics paths, outside its `/controller/v4/v2` prefix as it serves them. */
export const metricsEndpoints = {
  workspaceMetrics: endpoint({
    method: 'GET',
    path: '/metrics/{workgroupID}/{workspaceID}',
    summary: 'Scrape workspace metrics in Prometheus text format',
    description:
      'The latest `tigergraph_*` samples of the workspace in the Prometheus text exposition format 0.0.4 ' +
      '(`text/plain; version=0.0.4`), every sample labelled with `workgroup_id` and `workspace_id`: CPU, ' +
      'memory, disk, vertex and edge counts (by type where the runtime gives them), data-plane request counts ' +
      'and latency, uptime and status. A workspace that is not running answers `tigergraph_up 0` and its ' +
      'status without being woken. One reading serves every scrape of a workspace for two seconds.',
    tags,
    params: WorkspaceParams,
    result: Type.String({ description: 'Prometheus text exposition format' }),
    produces: 'text/plain; version=0.0.4; charset=utf-8',
    errors: [404],
    client: 'metrics.workspace',
  }),
  workgroupMetrics: endpoint({
    method: 'GET',
    path: '/observability/{workgroupID}/metrics',
    summary: "Summary of the workgroup's workspace metrics",
    description:
      'For each workspace of the workgroup, each metric of `GET /metrics/{workgroupID}/{workspaceID}` as ' +
      'one figure, `avgValue`: the average of its samples (a histogram: the average observation).',
    tags,
    params: WorkgroupParams,
    result: Ref(WorkgroupMetric),
    errors: [404],
    client: 'metrics.workgroup',
  }),
};
