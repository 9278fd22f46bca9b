import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI 3.1 document is generated from the routes' TypeBox schemas, so the published
 * contract is the one requests are validated against. Register before any route.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Acacia control plane',
        version,
        description: 'Workspace and Workgroup Management REST interface. Every response is the envelope {Error, ErrorDetails, Message, RequestID, Result}.',
      },
      components: { securitySchemes: { 'x-api-key': { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
      security: [{ 'x-api-key': [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
