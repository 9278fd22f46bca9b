import { createHash } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { EndpointId } from '../schemas/endpoints/index.js';
import { noneMatch } from './conditional-get.js';
import { openApiDocument } from './openapi-document.js';
import { DOCS_CSP, pageHeaders } from './page-headers.js';
import { appendRouteHook } from './route-hooks.js';

export const DOCS_PATH = '/docs';

/**
 * The reference's own marks, so that it reads as Acacia's and not its renderer's: a wordmark
 * in the top bar (dark, hence white) and an icon for the tab.
 */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">' +
  '<text x="0" y="28" font-family="system-ui, sans-serif" font-size="24" font-weight="700" fill="#ffffff">' +
  'Acacia</text></svg>';
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="6" fill="#1d5fbf"/>' +
  '<path d="M9 25 L16 7 L23 25 M11.8 18.5 H20.2" stroke="#ffffff" stroke-width="3.2" fill="none" ' +
  'stroke-linecap="round" stroke-linejoin="round"/></svg>';

/**
 * Publishes the OpenAPI 3.1 document of the served endpoints at /openapi.json and a
 * browsable reference at /docs. The document is the same for every request (its server is
 * relative), so it is written once, and any cache may keep it, asking again by its ETag.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  version: string,
  served: ReadonlySet<EndpointId>,
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
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: DOCS_PATH },
    theme: {
      title: 'Acacia API reference',
      favicon: [
        {
          filename: 'favicon.svg',
          rel: 'icon',
          sizes: 'any',
          type: 'image/svg+xml',
          content: Buffer.from(FAVICON_SVG),
        },
      ],
    },
  });
  const text = JSON.stringify(document);
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;
  app.get('/openapi.json', { schema: { hide: true } }, (request, reply) => {
    reply.headers({ etag, 'cache-control': 'public, no-cache' });
    if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(text);
  });
}
