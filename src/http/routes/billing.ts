import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { invalid } from '../../domain/errors.js';
import { requestContext } from '../request-context.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function billingRoutes(api: FastifyInstance, services: Services): void {
  const { billing, workspaces } = services;
  serve(api, 'getResourcePricing', async () => billing.pricing());
  serve(api, 'getCredit', async (request) => billing.credit(request.principal));
  serve(api, 'getBillingStatus', async (request) => billing.status(request.principal));
  serve(api, 'getBillingValidation', async (request) => billing.validation(request.principal));
  serve(api, 'getBillingAccount', async (request) => billing.account(request.principal));
  serve(api, 'getCreditCards', async (request) => billing.payments(request.principal));
  serve(api, 'deleteCreditCard', async (request) => billing.payments(request.principal));
  serve(api, 'setDefaultCreditCard', async (request) => billing.payments(request.principal));
  serve(api, 'payInvoice', async (request) => billing.payments(request.principal));
  serve(api, 'createBillingSession', async (request) => billing.payments(request.principal));
  serve(api, 'onboardingChat', async (request) => {
    const { workgroupID, workspaceID } = request.params;
    // The workspace is looked up first: another organisation's, or none, is a 404 as elsewhere.
    await workspaces.get(request.principal, workgroupID, workspaceID, requestContext(request));
    // The real service reads the thread from the ThreadID header; the body's thread_id serves
    // clients that cannot set one.
    const header = request.headers.threadid;
    const thread = typeof header === 'string' ? header : request.body.thread_id;
    if (thread === undefined || thread.length === 0 || thread.length > 128)
      throw invalid('ThreadID', 'the header (or thread_id) is required: the conversation thread, 1 to 128 characters');
    return billing.assistant();
  });
}
