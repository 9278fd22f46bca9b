import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { WorkgroupParams } from '../workgroup.js';
import { DatabaseParams, DatabaseRecord, RenameDatabaseBody } from '../workspace.js';
import { endpoint } from './spec.js';

const tags = ['Databases'] as const;
const all = `${API_PREFIX}/workgroups/{workgroupID}/databases` as const;
const one = `${all}/{databaseID}` as const;

export const databaseEndpoints = {
  listDatabases: endpoint({
    method: 'GET',
    path: all,
    summary: 'List the databases of a workgroup',
    description: 'Every database of the workgroup, each with its workspaces and folder_statistics.',
    tags,
    params: WorkgroupParams,
    result: Type.Array(Ref(DatabaseRecord)),
    errors: [404],
    client: 'databases.list',
  }),
  getDatabase: endpoint({
    method: 'GET',
    path: one,
    summary: 'Get a database',
    description: 'The database with its workspaces; ETag carries its version_number.',
    tags,
    params: DatabaseParams,
    result: Ref(DatabaseRecord),
    errors: [404],
    etag: true,
    client: 'databases.get',
  }),
  renameDatabase: endpoint({
    method: 'PUT',
    path: one,
    summary: 'Rename a database',
    description: 'Operation 6. With If-Match, applied only to that version_number.',
    tags,
    params: DatabaseParams,
    body: Ref(RenameDatabaseBody),
    result: Ref(DatabaseRecord),
    errors: [403, 404, 409, 412],
    etag: true,
    ifMatch: true,
    message: 'Database renamed.',
    client: 'databases.rename',
  }),
  deleteDatabase: endpoint({
    method: 'DELETE',
    path: one,
    summary: 'Delete a database without workspaces',
    description: 'Refused (409) while workspaces are attached; the Result is the record as it was.',
    tags,
    params: DatabaseParams,
    result: Ref(DatabaseRecord),
    errors: [403, 404, 409, 412],
    ifMatch: true,
    message: 'Database deleted.',
    client: 'databases.delete',
  }),
} as const;
