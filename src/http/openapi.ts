import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperationId } from '../schemas/operations/index.js';
import { openApiDocument, withServer } from './openapi-document.js';

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
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', persistAuthorization: true, displayOperationId: true },
    theme: { title: 'Acacia API reference' },
    transformSpecification: (_spec, request) => withServer(document, originOf(request)),
    transformSpecificationClone: false,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async (request) => withServer(document, originOf(request)));
}
