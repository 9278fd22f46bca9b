import { Type, type Static } from '@sinclair/typebox';
import { Body, Timestamp } from './helpers.js';
import { Component } from './component.js';

/** The real service's Organization. */
export const Organization = Component(
  'Organization',
  Type.Object(
    {
      org_id: Type.String(),
      org_name: Type.String(),
      org_display_name: Type.String({ description: 'the name when none is set' }),
      logo_url: Type.Optional(Type.String()),
      create_time: Timestamp,
      creator: Type.String({ description: "the owner user's id" }),
      tier: Type.String(),
      feature_flag: Type.Array(Type.Object({ feature_name: Type.String(), enabled: Type.Boolean() })),
      delinquent_since: Type.Optional(Timestamp),
    },
    { description: 'The organisation the caller belongs to.' },
  ),
);
export type Organization = Static<typeof Organization>;

/** The real service's OrgRequest: what an org admin may change. */
export const OrgRequest = Component(
  'OrgRequest',
  Body({
    orgDisplayName: Type.Optional(Type.String({ maxLength: 128, description: 'empty: none (the name is shown)' })),
    logoUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'an https URL; empty: none' })),
    orgID: Type.Optional(Type.String({ maxLength: 64, description: "if given, the caller's organisation id" })),
    orgName: Type.Optional(Type.String({ maxLength: 64, description: 'if given, the current name (not changeable)' })),
  }),
);
export type OrgRequest = Static<typeof OrgRequest>;

/** The real service's OrgQuota: the tier's limits and what the organisation uses of them now. */
export const OrgQuota = Component(
  'OrgQuota',
  Type.Object({
    org_id: Type.String(),
    tier: Type.String(),
    max_workspace_type: Type.String({ description: "the tier's largest size" }),
    max_workspace_memory: Type.String({ description: 'memory of that size, e.g. "64GB"' }),
    memory_limit: Type.String({ description: 'workspace memory the organisation may use, e.g. "256GB"' }),
    memory_usage_in_bytes: Type.Integer({ description: 'memory of its workspaces now (HA counts twice)' }),
    rw_workspace_count_limit: Type.Integer(),
    rw_workspace_count_usage: Type.Integer(),
    ro_workspace_count_limit: Type.Integer(),
    ro_workspace_count_usage: Type.Integer(),
    workspace_manual_backup_count_limit: Type.Integer({ description: 'per read-write workspace' }),
    workspace_auto_backup_count_limit: Type.Integer({ description: 'per read-write workspace' }),
    workspace_auto_backup_retention_in_days: Type.Integer(),
  }),
);
export type OrgQuota = Static<typeof OrgQuota>;
