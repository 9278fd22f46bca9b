import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { DbUserBody, DbUserRecord, DeleteDbUserBody } from '../db-user.js';
import { WorkspaceParams } from '../workspace.js';
import { endpoint } from './spec.js';

const tags = ['Database users'] as const;
const path = `${API_PREFIX}/workgroups/{workgroupID}/workspaces/{workspaceID}/dbuser` as const;

export const dbUserEndpoints = {
  createDbUser: endpoint({
    method: 'POST',
    path,
    summary: 'Create a database user',
    description:
      "A user the gateway admits to the workspace's data plane (Basic credentials). Usernames are unique in " +
      'the workspace, ignoring case; passwords are kept only as scrypt hashes and never returned.',
    tags,
    params: WorkspaceParams,
    body: Ref(DbUserBody),
    result: Ref(DbUserRecord),
    errors: [403, 404, 409],
    message: 'Database user created.',
    client: 'dbUsers.create',
  }),
  listDbUsers: endpoint({
    method: 'GET',
    path,
    summary: 'List the database users',
    description: 'Every database user of the workspace, without passwords.',
    tags,
    params: WorkspaceParams,
    result: Type.Array(Ref(DbUserRecord)),
    errors: [404],
    client: 'dbUsers.list',
  }),
  updateDbUser: endpoint({
    method: 'PUT',
    path,
    summary: "Change a database user's password",
    description: 'Sets a new password for `username`.',
    tags,
    params: WorkspaceParams,
    body: Ref(DbUserBody),
    result: Ref(DbUserRecord),
    errors: [403, 404],
    message: 'Password changed.',
    client: 'dbUsers.update',
  }),
  deleteDbUser: endpoint({
    method: 'DELETE',
    path,
    summary: 'Delete a database user',
    description: 'DELETE with a JSON body `{username}`; the Result is the user as it was.',
    tags,
    params: WorkspaceParams,
    body: Ref(DeleteDbUserBody),
    result: Ref(DbUserRecord),
    errors: [403, 404],
    message: 'Database user deleted.',
    client: 'dbUsers.delete',
  }),
} as const;
