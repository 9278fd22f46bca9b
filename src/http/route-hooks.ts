import type { RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preValidation' | 'preHandler' | 'onSend' | 'onResponse';

/**
 * Appends a hook to one route from an onRoute listener, so only the routes that need it pay
 * for it (a scope-wide hook runs on every request of the scope).
 */
export function appendRouteHook(route: RouteOptions, name: HookName, hook: unknown): void {
  const present = route[name];
  (route as unknown as Record<HookName, unknown[]>)[name] = [
    ...(present === undefined ? [] : Array.isArray(present) ? present : [present]),
    hook,
  ];
}
