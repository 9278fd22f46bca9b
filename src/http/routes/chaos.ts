import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

/** /_test/chaos: the organisation's chaos rules (docs/chaos.md); refused unless fault injection is on. */
export function chaosRoutes(scope: FastifyInstance, services: Services): void {
  const { chaos } = services;
  serve(scope, 'createChaosRule', async (request) => chaos.create(request.principal, request.body));
  serve(scope, 'listChaosRules', async (request) => chaos.list(request.principal));
  serve(scope, 'clearChaosRules', async (request) => chaos.clear(request.principal));
  serve(scope, 'deleteChaosRule', async (request) => chaos.delete(request.principal, request.params.chaos_rule_id));
}
