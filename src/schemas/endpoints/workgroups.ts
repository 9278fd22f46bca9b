import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import {
  CreateWorkgroupBody,
  UpdateWorkgroupBody,
  WorkgroupParams,
  WorkgroupRecord,
  WorkgroupsQuery,
} from '../workgroup.js';
import { endpoint } from './spec.js';

const tags = ['Workgroups'] as const;
const one = `${API_PREFIX}/workgroups/{workgroupID}` as const;

export const workgroupEndpoints = {
  createWorkgroup: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/workgroups`,
    summary: 'Create a workgroup',
    description:
      'Operation 1. Creates a workgroup on a cloud provider: `cloud_provider_id` names an Active provider ' +
      'visible to the organisation (GET /cloud-providers); `platform` and `region` default to the ' +
      "provider's and must match it when given. Names are unique in the organisation, ignoring case. " +
      'For org-admin keys.',
    tags,
    body: Ref(CreateWorkgroupBody),
    result: Ref(WorkgroupRecord),
    errors: [403, 404, 409],
    message: 'Workgroup created.',
    client: 'workgroups.create',
  }),
  listWorkgroups: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/workgroups`,
    summary: 'List workgroups',
    description:
      "The organisation's workgroups, each with its databases and workspaces (`workspaces[].nginx_host` " +
      "is a workspace's data-plane host). With `limit`, a page at a time: the next page's cursor is in " +
      'X-Next-Cursor, absent on the last page. `name` (extension) keeps the workgroup of that name only.',
    tags,
    query: WorkgroupsQuery,
    result: Type.Array(Ref(WorkgroupRecord)),
    errors: [],
    paginated: true,
    client: 'workgroups.list',
  }),
  getWorkgroup: endpoint({
    method: 'GET',
    path: one,
    summary: 'Get workgroup details',
    description: 'Operation 2. The workgroup with its databases and workspaces; ETag carries its version_number.',
    tags,
    params: WorkgroupParams,
    result: Ref(WorkgroupRecord),
    errors: [404],
    etag: true,
    client: 'workgroups.get',
  }),
  updateWorkgroup: endpoint({
    method: 'PUT',
    path: one,
    summary: 'Update a workgroup',
    description:
      'Operation 3. Renames the workgroup or changes application logging or encryption; omitted fields keep ' +
      'their values. With If-Match, applied only to that version_number.',
    tags,
    params: WorkgroupParams,
    body: Ref(UpdateWorkgroupBody),
    result: Ref(WorkgroupRecord),
    errors: [403, 404, 409, 412],
    etag: true,
    ifMatch: true,
    message: 'Workgroup updated.',
    client: 'workgroups.update',
  }),
  deleteWorkgroup: endpoint({
    method: 'DELETE',
    path: one,
    summary: 'Delete an empty workgroup',
    description:
      'Deletes a workgroup that holds no workspaces and no databases (409 otherwise); the Result is its id ' +
      '(a string, as the real service documents it). For org-admin keys.',
    tags,
    params: WorkgroupParams,
    result: Type.String({ description: 'the deleted workgroup id' }),
    errors: [403, 404, 409, 412],
    ifMatch: true,
    message: 'Workgroup deleted.',
    client: 'workgroups.delete',
  }),
  acquirePooledWorkgroup: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/pooled-workgroups/acquire`,
    summary: 'Acquire a pooled workgroup',
    description:
      "Hands one of the workgroups the server keeps warm to the caller's organisation at once: the workgroup " +
      'with its database and read-write workspace, already Active (docs/pooled-workgroups.md). The events of ' +
      "a created workgroup, database and workspace follow in the organisation's feed. The tier's quotas apply " +
      'as to a creation (403 Quota-Exceed, nothing moved); 403 API-Disabled when the server keeps no pool ' +
      '(ACACIA_POOL_SIZE); 503 with Retry-After while none is ready; 429 past ACACIA_POOL_ACQUIRES_PER_HOUR. ' +
      'For org-admin keys.',
    tags,
    result: Ref(WorkgroupRecord),
    errors: [403, 409, 503],
    message: 'Pooled workgroup acquired.',
    client: 'workgroups.acquire',
  }),
} as const;
