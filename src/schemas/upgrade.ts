import { Type, type Static } from '@sinclair/typebox';
import { Body, Timestamp } from './helpers.js';
import { Component } from './component.js';

/** POST …/workspaces/{ws}/upgrade: the real service's UpgradeWorkspaceRequest. */
export const UpgradeWorkspaceBody = Component(
  'UpgradeWorkspaceBody',
  Body({
    desired_version: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        description: 'the version to run; default: the newest the workspace may upgrade to outside the preview channel',
      }),
    ),
    scheduled: Type.Optional(
      Type.Boolean({
        description: "true: at the start of the workspace's next maintenance window; false (default): now",
      }),
    ),
  }),
);
export type UpgradeWorkspaceBody = Static<typeof UpgradeWorkspaceBody>;

/** One workspace that will upgrade in its next maintenance window. */
export const ScheduledUpgradeRecord = Component(
  'ScheduledUpgradeRecord',
  Type.Object(
    {
      workspace_id: Type.String(),
      workspace_name: Type.String(),
      workgroup_id: Type.String(),
      status: Type.String({ description: 'the workspace runs the upgrade only while Active when the window opens' }),
      tg_version: Type.String({ description: 'the version it runs' }),
      desired_version: Type.String({ description: 'the version it will run' }),
      window_start: Timestamp,
      window_end: Type.String({ description: 'RFC 3339: the end of the one-hour window' }),
      requested_at: Type.Optional(Type.String({ description: 'RFC 3339: when the upgrade was asked for' })),
      requested_by: Type.Optional(Type.String({ description: 'the API key that asked for it' })),
    },
    { description: 'A workspace that will upgrade in its next maintenance window.' },
  ),
);
export type ScheduledUpgradeRecord = Static<typeof ScheduledUpgradeRecord>;
