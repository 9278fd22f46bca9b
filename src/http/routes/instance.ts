import type { FastifyInstance } from 'fastify';
import { authorize } from '../../domain/permissions.js';
import type { Clock } from '../../domain/clock.js';
import { iso } from '../../domain/time.js';
import { serveEndpoint } from '../serve-endpoint.js';

/** What acts on the whole instance, as the routes need it (the engine's InstanceControl). */
export interface InstanceAdmin {
  /** Throws Forbidden unless the organisation is the bootstrap organisation. */
  requireBootstrapOrganisation(orgId: string): Promise<void>;
  /** Empties the instance but for the bootstrap organisation and key; Forbidden outside test mode. */
  reset(): Promise<void>;
}

/** POST /_test/reset: org-admin of the bootstrap organisation, in test mode only. */
export function instanceRoutes(scope: FastifyInstance, instance: InstanceAdmin, clock: Clock): void {
  serveEndpoint(scope, 'resetInstance', async (request) => {
    authorize(request.principal, 'org:admin');
    await instance.requireBootstrapOrganisation(request.principal.orgId);
    await instance.reset();
    return { now: iso(clock.now()) };
  });
}
