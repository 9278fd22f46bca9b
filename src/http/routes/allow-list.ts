import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { AllowListEntryBody, AllowListEntryParams, AllowListEntryRecord, CurrentIpRecord } from '../../schemas/allow-list.js';
import { WorkgroupParams, WorkgroupRecord } from '../../schemas/workgroup.js';
import { ok, versioned } from '../envelope.js';
import { requestContext } from '../request-context.js';
import { replies, repliesDeclaringErrorResult } from '../responses.js';

const tags = ['allow list'];
const base = '/workgroups/:workgroupID/allow_list';

export function allowListRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { allowList } = services;

  api.post(base, {
    schema: { operationId: 'addAllowedIp', summary: 'Add an IP address or CIDR range to the allow list', tags, params: WorkgroupParams, body: AllowListEntryBody, response: repliesDeclaringErrorResult(AllowListEntryRecord, Type.String()) },
    handler: async (request) => ok(request, await allowList.create(request.principal, request.params.workgroupID, request.body), 'Allow list entry added.'),
  });

  api.get(base, {
    schema: { operationId: 'listAllowedIps', summary: 'List the allow list entries in force', tags, params: WorkgroupParams, response: replies(Type.Array(AllowListEntryRecord)) },
    handler: async (request) => ok(request, await allowList.list(request.principal, request.params.workgroupID)),
  });

  // Static segments: find-my-way matches them before the `:id` routes below.
  api.get(`${base}/current`, {
    schema: { operationId: 'checkCurrentIp', summary: "Whether the caller's address passes the allow list", tags, params: WorkgroupParams, response: replies(CurrentIpRecord) },
    handler: async (request) => ok(request, await allowList.current(request.principal, request.params.workgroupID, requestContext(request))),
  });

  for (const action of ['enable', 'disable'] as const) {
    api.put(`${base}/${action}`, {
      schema: { operationId: `${action}AllowList`, summary: `${action === 'enable' ? 'Enforce' : 'Stop enforcing'} the allow list on the gateway`, tags, params: WorkgroupParams, response: replies(WorkgroupRecord) },
      handler: async (request, reply) => versioned(request, reply, await allowList.setEnabled(request.principal, request.params.workgroupID, action === 'enable', requestContext(request)), `Allow list ${action}d.`),
    });
  }

  api.put(`${base}/:id`, {
    schema: { operationId: 'updateAllowedIp', summary: 'Update an allow list entry', tags, params: AllowListEntryParams, body: AllowListEntryBody, response: repliesDeclaringErrorResult(AllowListEntryRecord, Type.String()) },
    handler: async (request) =>
      ok(request, await allowList.update(request.principal, request.params.workgroupID, request.params.id, request.body), 'Allow list entry updated.'),
  });

  api.delete(`${base}/:id`, {
    schema: { operationId: 'deleteAllowedIp', summary: 'Remove an allow list entry', tags, params: AllowListEntryParams, response: replies(AllowListEntryRecord) },
    handler: async (request) =>
      ok(request, await allowList.delete(request.principal, request.params.workgroupID, request.params.id), 'Allow list entry removed.'),
  });
}
