import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperationId } from '../schemas/operations/index.js';
import { openApiDocument, withServer } from './openapi-document.js';
import { DOCS_CSP, pageHeaders } from './page-headers.js';
import { appendRouteHook } from './route-hooks.js';

export const DOCS_PATH = '/docs';

/** The origin the request reached (behind a trusted proxy, the one the client used). */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/**
 * Publishes the OpenAPI 3.1 document of the served operations at /openapi.json and a
 * browsable reference at /docs. Its `servers` entry is the origin each request reached.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  version: string,
  served: ReadonlySet<OperationId>,
): Promise<void> {
  const document = openApiDocument(version, served);
  // Every route of the reference, its static files included, sends the page's headers.
  const docsHeaders = pageHeaders(DOCS_CSP);
  app.addHook('onRoute', (route) => {
    if (route.url === DOCS_PATH || route.url.startsWith(`${DOCS_PATH}/`))
      appendRouteHook(route, 'onRequest', docsHeaders);
  });
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    // The key typed into Authorize lives as long as the page: nothing is kept in the browser.
    uiConfig: { docExpansion: 'list', persistAuthorization: false, displayOperationId: true },
    theme: { title: 'Acacia API reference' },
    transformSpecification: (_spec, request) => withServer(document, originOf(request)),
    transformSpecificationClone: false,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async (request) => withServer(document, originOf(request)));
}
