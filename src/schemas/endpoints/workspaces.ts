import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { WorkgroupParams } from '../workgroup.js';
import { CreateWorkspaceBody, UpdateWorkspaceBody, WorkspaceParams, WorkspaceRecord } from '../workspace.js';
import { MetaQuery, MetaRecord } from '../meta.js';
import { endpoint } from './spec.js';

const tags = ['Workspaces'] as const;
const all = `${API_PREFIX}/workgroups/{workgroupID}/workspaces` as const;
const one = `${all}/{workspaceID}` as const;

const action = <V extends 'pause' | 'resume' | 'refresh'>(verb: V, summary: string, description: string) =>
  endpoint({
    method: 'POST',
    path: `${one}/${verb}` as const,
    summary,
    description,
    tags,
    params: WorkspaceParams,
    result: Ref(WorkspaceRecord),
    errors: [403, 404, 409, 412],
    ifMatch: true,
    follow: 'workspace',
    client: `workspaces.${verb}` as const,
  });

export const workspaceEndpoints = {
  createWorkspace: endpoint({
    method: 'POST',
    path: all,
    summary: 'Create a workspace',
    description:
      'Operation 4. Creates a workspace and, unless `tg_database_id` names one, its database. Read-write by ' +
      'default; a read-only workspace attaches to an existing database. Sizes and versions come from ' +
      'GET /workspaces/meta. Counts against the tier quotas (403 Quota-Exceed).',
    tags,
    params: WorkgroupParams,
    body: Ref(CreateWorkspaceBody),
    result: Ref(WorkspaceRecord),
    errors: [403, 404, 409],
    follow: 'workspace',
    message: 'Workspace is being created.',
    client: 'workspaces.create',
  }),
  listWorkspaces: endpoint({
    method: 'GET',
    path: all,
    summary: 'List the workspaces of a workgroup',
    description: 'Every workspace of the workgroup.',
    tags,
    params: WorkgroupParams,
    result: Type.Array(Ref(WorkspaceRecord)),
    errors: [404],
    client: 'workspaces.list',
  }),
  getWorkspace: endpoint({
    method: 'GET',
    path: one,
    summary: 'Get a workspace',
    description:
      'The workspace; ETag carries its version_number, and If-None-Match with that ETag answers 304 while it ' +
      'is unchanged. Pollers may add a cache-busting query parameter (`?_t=<ms>`): parameters a route does ' +
      'not define are ignored.',
    tags,
    params: WorkspaceParams,
    result: Ref(WorkspaceRecord),
    errors: [404],
    etag: true,
    client: 'workspaces.get',
  }),
  updateWorkspace: endpoint({
    method: 'PUT',
    path: one,
    summary: 'Update a workspace',
    description:
      'Operation 5. Changes settings (accepted in every state), or resizes, changes HA or upgrades (an ' +
      'Active workspace only; 409 otherwise). `pause: true` pauses, `pause: false` resumes. Omitted fields ' +
      'keep their values; with If-Match, applied only to that version_number.',
    tags,
    params: WorkspaceParams,
    body: Ref(UpdateWorkspaceBody),
    result: Ref(WorkspaceRecord),
    errors: [403, 404, 409, 412],
    etag: true,
    ifMatch: true,
    follow: 'workspace',
    message: 'Workspace updated.',
    client: 'workspaces.update',
  }),
  deleteWorkspace: endpoint({
    method: 'DELETE',
    path: one,
    summary: 'Delete a workspace',
    description:
      'Deletes a workspace in a stable status (Active, Stopped, Idle or Failed), with its backups and ' +
      'schedules. A read-write workspace with read-only workspaces attached to its database is refused (409).',
    tags,
    params: WorkspaceParams,
    result: Ref(WorkspaceRecord),
    errors: [403, 404, 409, 412],
    ifMatch: true,
    follow: 'workspace',
    message: 'Workspace is being deleted.',
    client: 'workspaces.delete',
  }),
  pauseWorkspace: action(
    'pause',
    'Pause a workspace',
    'Stops an Active (or Failed) workspace: Pausing, then Stopped, or Idle when enable_auto_start. A Stopped ' +
      'workspace stays as it is.',
  ),
  resumeWorkspace: action(
    'resume',
    'Resume a workspace',
    'Starts a Stopped or Idle workspace: Resuming, then Active. An Active workspace stays as it is; a Failed ' +
      'one runs its failed operation again.',
  ),
  refreshWorkspace: action(
    'refresh',
    'Refresh a read-only workspace',
    "Brings an Active read-only workspace up to date with its database's read-write workspace: Refreshing, " +
      'then Active.',
  ),
  getWorkspaceMeta: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/workspaces/meta`,
    summary: 'Sizes, versions and regions',
    description:
      "The regions, versions and workspace sizes the organisation may use (the real service's " +
      '`regions`, `tgVersions`, `workspaceTypes`), with every size, the add-on catalog and the tier limits. ' +
      '`tgVersions` lists the versions a new workspace may run; `?upgrade=true` lists those the organisation ' +
      'may upgrade to instead.',
    tags,
    query: MetaQuery,
    result: Ref(MetaRecord),
    errors: [],
    client: 'meta',
  }),
} as const;
