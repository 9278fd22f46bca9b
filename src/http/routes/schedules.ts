import type { FastifyInstance } from 'fastify';
import type { WorkspaceRef } from '../../domain/schedules.js';
import type { Services } from '../../domain/services.js';
import { requestContext } from '../request-context.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

const refOf = (params: { workgroupID?: string; workspaceID: string }): WorkspaceRef => ({
  ...(params.workgroupID !== undefined ? { workgroupId: params.workgroupID } : {}),
  workspaceId: params.workspaceID,
});

/** The two path forms: under the workgroup (the contract's) and the short /workspaces/{ws} one. */
export function scheduleRoutes(api: FastifyInstance, services: Services): void {
  const { schedules } = services;
  serve(api, 'createSchedule', async (request) =>
    schedules.create(request.principal, refOf(request.params), request.body, request.tx),
  );
  for (const form of ['', 'Short'] as const) {
    serve(api, `listSchedules${form}`, async (request) => schedules.list(request.principal, refOf(request.params)));
    serve(api, `getSchedule${form}`, async (request) =>
      schedules.get(request.principal, refOf(request.params), request.params.scheduleID),
    );
    serve(api, `updateSchedule${form}`, async (request) =>
      schedules.update(
        request.principal,
        refOf(request.params),
        request.params.scheduleID,
        request.body,
        requestContext(request),
      ),
    );
    // The real service answers the deleted schedule's id.
    serve(
      api,
      `deleteSchedule${form}`,
      async (request) =>
        (
          await schedules.delete(
            request.principal,
            refOf(request.params),
            request.params.scheduleID,
            requestContext(request),
          )
        ).id,
    );
  }
}
