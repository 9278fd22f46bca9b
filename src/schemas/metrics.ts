import { Type, type Static } from '@sinclair/typebox';
import { Component, Ref } from './component.js';

/** One metric of a workspace, as the real service's observability summary gives it. */
export const MetricValue = Component(
  'MetricValue',
  Type.Object({ avgValue: Type.Number({ description: 'the average of the samples of the metric' }) }),
);

export const WorkspaceMetric = Component(
  'WorkspaceMetric',
  Type.Object({
    workspaceID: Type.String(),
    metrics: Type.Record(Type.String(), Ref(MetricValue), {
      description: 'by metric name (the names of GET /metrics/{workgroupID}/{workspaceID})',
    }),
  }),
);

export const WorkgroupMetric = Component(
  'WorkgroupMetric',
  Type.Object({
    workgroupID: Type.String(),
    workspaceMetrics: Type.Array(Ref(WorkspaceMetric), { description: 'one entry per workspace of the workgroup' }),
  }),
);

export type WorkspaceMetric = Static<typeof WorkspaceMetric>;
export type WorkgroupMetric = Static<typeof WorkgroupMetric>;
