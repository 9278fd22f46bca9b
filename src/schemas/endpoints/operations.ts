import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { OperationParams, OperationRecord, OperationsQuery } from '../operation.js';
import { endpoint } from './spec.js';

const tags = ['Operations'] as const;

export const operationEndpoints = {
  getOperation: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/operations/{id}`,
    summary: 'Get an asynchronous operation',
    description:
      'An asynchronous change (create, pause, resume, resize, restore, backup, provisioning…): poll it until ' +
      '`state` is succeeded or failed (then `error` says why).',
    tags,
    params: OperationParams,
    result: Ref(OperationRecord),
    errors: [404],
    client: 'operations.get',
  }),
  listOperations: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/operations`,
    summary: 'List operations',
    description:
      "The organisation's operations, oldest first; `resource_id` keeps those of one workspace (with those " +
      "of its backups), backup or cloud provider. With `limit`, a page at a time: the next page's cursor is " +
      'in X-Next-Cursor.',
    tags,
    query: OperationsQuery,
    result: Type.Array(Ref(OperationRecord)),
    errors: [],
    paginated: true,
    client: 'operations.list',
  }),
} as const;
