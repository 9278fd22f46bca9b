import FindMyWay from 'find-my-way';
import type { FastifyInstance, HTTPMethods } from 'fastify';

/** Remembers every route so an unmatched request can be told apart: unknown path (404) or wrong method (405). */
export function indexRoutes(app: FastifyInstance): (url: string) => string[] {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  const methods = new Set<string>();
  const seen = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of ([] as HTTPMethods[]).concat(route.method)) {
      // The CORS preflight route answers OPTIONS on every path, for allowed origins only.
      if (method === 'OPTIONS') continue;
      const id = `${method} ${route.url}`;
      if (seen.has(id)) continue;
      seen.add(id);
      methods.add(method);
      router.on(method as FindMyWay.HTTPMethod, route.url, () => undefined);
    }
  });
  return (url) => {
    const path = url.split('?')[0] ?? url;
    return [...methods].filter((m) => router.find(m as FindMyWay.HTTPMethod, path) !== null).sort();
  };
}
