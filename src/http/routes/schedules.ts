import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { WorkspaceRef } from '../../domain/schedules.js';
import type { Services } from '../../domain/services.js';
import { ScheduleBody, ScheduleParams, ScheduleRecord, ShortScheduleParams } from '../../schemas/schedule.js';
import { WorkspaceIdParams, WorkspaceParams } from '../../schemas/workspace.js';
import { ok, versioned } from '../envelope.js';
import { requestContext } from '../request-context.js';
import { replies, repliesDeclaringErrorResult } from '../responses.js';

const tags = ['schedules'];

/** The two path forms: under the workgroup (the contract's) and the short /workspaces/{ws} one. */
const forms = [
  { prefix: '/workgroups/:workgroupID/workspaces/:workspaceID', suffix: '', params: WorkspaceParams, one: ScheduleParams },
  { prefix: '/workspaces/:workspaceID', suffix: 'Short', params: WorkspaceIdParams, one: ShortScheduleParams },
] as const;

const refOf = (params: { workgroupID?: string; workspaceID: string }): WorkspaceRef => ({
  ...(params.workgroupID !== undefined ? { workgroupId: params.workgroupID } : {}),
  workspaceId: params.workspaceID,
});

export function scheduleRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { schedules } = services;

  for (const form of forms) {
    const base = `${form.prefix}/schedules`;
    if (form.suffix === '') {
      api.post(base, {
        schema: { operationId: 'createSchedule', summary: 'Create a workspace schedule', tags, params: form.params, body: ScheduleBody, response: replies(ScheduleRecord) },
        handler: async (request) => ok(request, await schedules.create(request.principal, refOf(request.params), request.body), 'Schedule created.'),
      });
    }

    api.get(base, {
      schema: { operationId: `listSchedules${form.suffix}`, summary: 'List the schedules of a workspace', tags, params: form.params, response: replies(Type.Array(ScheduleRecord)) },
      handler: async (request) => ok(request, await schedules.list(request.principal, refOf(request.params))),
    });

    api.get(`${base}/:scheduleID`, {
      schema: { operationId: `getSchedule${form.suffix}`, summary: 'Get a schedule with its next and last run', tags, params: form.one, response: replies(ScheduleRecord) },
      handler: async (request, reply) => versioned(request, reply, await schedules.get(request.principal, refOf(request.params), request.params.scheduleID)),
    });

    api.put(`${base}/:scheduleID`, {
      schema: {
        operationId: `updateSchedule${form.suffix}`, summary: 'Update a workspace schedule (Result: the schedule id)', tags,
        params: form.one, body: ScheduleBody, response: repliesDeclaringErrorResult(Type.String(), Type.Object({})),
      },
      handler: async (request) =>
        ok(request, await schedules.update(request.principal, refOf(request.params), request.params.scheduleID, request.body, requestContext(request)), 'Schedule updated.'),
    });

    api.delete(`${base}/:scheduleID`, {
      schema: { operationId: `deleteSchedule${form.suffix}`, summary: 'Delete a workspace schedule', tags, params: form.one, response: replies(ScheduleRecord) },
      handler: async (request) =>
        ok(request, await schedules.delete(request.principal, refOf(request.params), request.params.scheduleID, requestContext(request)), 'Schedule deleted.'),
    });
  }
}
