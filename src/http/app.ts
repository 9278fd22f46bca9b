import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type preValidationHookHandler,
} from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { AppError } from '../domain/errors.js';
import type { Services } from '../domain/services.js';
import { requireApiKey } from './auth.js';
import { renderAppError, toAppError } from './envelope.js';
import { idempotentPosts } from './idempotency.js';
import { parseJsonBody, refuseUnexpectedBody } from './json-body.js';
import { limitConnections, type ConnectionSettings } from '../listener/connection-limits.js';
import { serverTiming } from './server-timing.js';
import { continueAfterChecks } from '../listener/expect-continue.js';
import {
  MAX_PARAM_LENGTH,
  clientErrorHandler,
  listenerOptions,
  type ListenerTimeouts,
} from '../listener/listener-limits.js';
import { instrument } from './metrics.js';
import { requestLog } from '../listener/request-log.js';
import { consoleRoutes } from './console.js';
import { invitationRoutes, orgRoutes } from './routes/org.js';
import { registerOpenApi } from './openapi.js';
import { appendRouteHook } from './route-hooks.js';
import { limitRequestRate } from './rate-limit.js';
import { checkIfMatch, refuseNulInParameters } from './request-context.js';
import { requireHost } from '../listener/require-host.js';
import { components } from '../schemas/component.js';
import { apiEndpoints, type EndpointId } from '../schemas/endpoints/index.js';
import { indexRoutes } from './route-index.js';
import { allowListRoutes } from './routes/allow-list.js';
import { addonRoutes } from './routes/addons.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { webhookRoutes } from './routes/webhooks.js';
import { backupRoutes } from './routes/backups.js';
import { billingRoutes } from './routes/billing.js';
import { cloudProviderRoutes } from './routes/cloud-providers.js';
import { operabilityRoutes, type ReadinessChecks, type StatusReport } from './routes/operability.js';
import { testClockRoutes, type TestClock } from './routes/test-clock.js';
import { chaosRoutes } from './routes/chaos.js';
import { applyChaos } from './chaos.js';
import { instanceRoutes, type InstanceAdmin } from './routes/instance.js';
import { databaseRoutes } from './routes/databases.js';
import { scheduleRoutes } from './routes/schedules.js';
import { dbUserRoutes } from './routes/db-users.js';
import { graphRoutes } from './routes/graph.js';
import type { GraphBackend } from '../domain/graph-requests.js';
import { metricsRoutes } from './routes/metrics.js';
import { operationRoutes } from './routes/operations.js';
import { eventRoutes } from './routes/events.js';
import { eventSignals } from '../store/event-signals.js';
import { workspaceRoutes } from './routes/workspaces.js';
import { upgradeRoutes } from './routes/upgrades.js';
import { workgroupRoutes } from './routes/workgroups.js';
import { validatorCompiler } from './validation.js';
import { allowCors } from './cors.js';
import { lazyChildLogger } from '../logger.js';

/** The settings the API reads (ACACIA_* in src/config.ts, which gives them all). */
export interface ApiSettings extends ListenerTimeouts, ConnectionSettings {
  /** The largest snapshot file PUT /_admin/snapshot takes. */
  snapshotMaxBytes: number;
  /** The largest request body (bytes). */
  bodyLimit: number;
  /** Whether answers carry a Server-Timing header with their store statements and time. */
  serverTiming: boolean;
  /** Origins a browser may call the API from; `['*']` = any (without credentials); empty = none. */
  corsOrigins: readonly string[];
  /** PostgreSQL's URL, for the connection event streams LISTEN on; undefined on SQLite. */
  databaseUrl: string | undefined;
  /** Requests per minute per API key; 0 = no limit. */
  rateLimit: number;
  /** Time between heartbeat comments on an idle event stream, and a stream's wait for a stalled client (ms). */
  eventsHeartbeatMs: number;
  eventsStallMs: number;
  /** Open event streams per API key, and per organisation, in this process; 0 = no cap. */
  eventStreamsPerKey: number;
  eventStreamsPerOrganisation: number;
}

export interface AppDeps {
  config: Readonly<ApiSettings>;
  services: Services;
  logger: Logger;
  version: string;
  readiness: ReadinessChecks;
  /** What GET /_status answers. */
  status: StatusReport;
  /** Present only with ACACIA_CLOCK=manual. */
  testClock?: TestClock;
  /** The data-plane gateway's base URL once it listens, for the console to show. */
  gatewayUrl?: () => string | undefined;
  /** Acts on the whole instance (reset); the routes are served only when it is given. */
  instance?: InstanceAdmin;
  /** Where /metrics reads from; the app adds its HTTP metrics to it (a registry of its own by default). */
  metricsRegistry?: Registry;
  /** What serves the console's requests to a workspace's graph: the gateway's backend. */
  graphBackend: GraphBackend;
}

/** The endpoints served only when the app is given what acts on the whole instance. */
const instanceEndpoints = new Set<EndpointId>(['resetInstance']);

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Every route checks its parameters for NUL. A body-taking route called without a body
// validates as {} so required fields are named; a route that takes no body refuses one with
// fields in it, as a strict body would. Chosen per route when it is added, one hook each.
const bodyOrEmpty: preValidationHookHandler = (request, _reply, done) => {
  refuseNulInParameters(request);
  if (request.body === undefined) request.body = {};
  done();
};
const noBody: preValidationHookHandler = (request, _reply, done) => {
  refuseNulInParameters(request);
  request.body = refuseUnexpectedBody(request.body);
  done();
};

/** Builds the API app, unstarted: the entry point listens, tests may too. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, services } = deps;
  const app = Fastify({
    ...listenerOptions(config),
    loggerInstance: deps.logger as FastifyBaseLogger,
    childLoggerFactory: lazyChildLogger,
    logController: requestLog(),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    genReqId: (req) => {
      const header = req.headers['x-request-id'];
      return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
    },
    // Requests the HTTP parser refuses, and timeouts, never reach a route: answer them here.
    clientErrorHandler: clientErrorHandler(config, (refusal, requestId) => renderAppError(refusal, requestId).body),
    // Bad percent-encoding and over-long path parameters are found before routing.
    frameworkErrors: (error, request, reply) => {
      const { status, body } = renderAppError(toAppError(error), request.id);
      (reply as FastifyReply).code(status).header('x-request-id', request.id).send(body);
      metrics.observeUnmatched(request, reply as FastifyReply);
    },
  });
  limitConnections(app, config);
  // First of the hooks, so the tally sees every statement the request runs.
  if (config.serverTiming) serverTiming(app);
  app.decorateRequest('domainContext', undefined);

  app.setValidatorCompiler(validatorCompiler);
  // Route schemas refer to the named schemas by $ref; the serialiser resolves them here.
  for (const schema of components().values()) app.addSchema(schema);
  const allowedMethods = indexRoutes(app);
  const metrics = instrument(app, deps.metricsRegistry);

  // JSON only, parsed strictly (see parseJsonBody); an empty body is no body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // No route, no use for the body: a request without a key must not make the server parse one.
    if (request.is404) return done(null, undefined);
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  // Hooks that never wait take the callback form: an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    requireHost(request);
    done();
  });

  app.addHook('onRoute', (route) => appendRouteHook(route, 'preValidation', route.schema?.body ? bodyOrEmpty : noBody));
  continueAfterChecks(app);

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === 'internal') request.log.error({ err: error }, 'request failed');
    if (appError.code === 'store-unavailable') request.log.warn({ err: error }, 'database unreachable');
    const { status, body, retryAfter } = renderAppError(appError, request.id);
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    reply.code(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedMethods(request.url);
    const error = allowed.length
      ? new AppError('method-not-allowed', {
          field: 'method',
          reason: `${request.method} is not allowed here; allowed: ${allowed.join(', ')}`,
        })
      : new AppError('not-found', { field: 'path', reason: `no route ${request.method} ${request.url.split('?')[0]}` });
    if (allowed.length) reply.header('allow', allowed.join(', '));
    const { status, body } = renderAppError(error, request.id);
    reply.code(status).send(body);
    metrics.observeUnmatched(request, reply);
  });

  // Processes sharing a store share its manual clock: read it before every request (before
  // authentication too, which judges key expiry by it), so a schedule created here counts
  // from the time another process set. A root hook added before the scopes runs first.
  const syncClock = deps.testClock?.sync;
  if (syncClock) app.addHook('onRequest', async () => syncClock());

  // Every endpoint of the table is served (the manual clock only with ACACIA_CLOCK=manual),
  // and the document lists exactly those.
  const served = new Set(
    (Object.keys(apiEndpoints) as EndpointId[]).filter(
      (id) => (id !== 'moveTestClock' || deps.testClock) && (!instanceEndpoints.has(id) || deps.instance),
    ),
  );
  const registered = new Set<EndpointId>();
  app.addHook('onRoute', (route) => {
    const id = route.config?.endpointId;
    if (id && route.method !== 'HEAD') registered.add(id);
  });
  await allowCors(app, config.corsOrigins);
  await registerOpenApi(app, deps.version, served);
  operabilityRoutes(app, deps.readiness, metrics.registry, deps.status);
  await app.register(consoleRoutes, { version: deps.version, gatewayUrl: deps.gatewayUrl });

  // One source of "new events" per process for every stream (one LISTEN connection on PostgreSQL).
  const signals = eventSignals(services.store, {
    databaseUrl: config.databaseUrl,
    onError: (err) => app.log.warn({ err }, 'event signals: a listening connection failed; polling covers it'),
  });
  app.addHook('onClose', async () => signals.close());

  await app.register(async (api) => {
    requireApiKey(api, services);
    applyChaos(api, services.chaos);
    checkIfMatch(api);
    await limitRequestRate(api, config.rateLimit);
    idempotentPosts(api, services);
    workgroupRoutes(api, services);
    workspaceRoutes(api, services);
    upgradeRoutes(api, services);
    scheduleRoutes(api, services);
    databaseRoutes(api, services);
    allowListRoutes(api, services);
    dbUserRoutes(api, services);
    graphRoutes(api, services, deps.graphBackend);
    backupRoutes(api, services);
    operationRoutes(api, services);
    eventRoutes(api, services, {
      signals,
      heartbeatMs: config.eventsHeartbeatMs,
      stallMs: config.eventsStallMs,
      limits: { perKey: config.eventStreamsPerKey, perOrganisation: config.eventStreamsPerOrganisation },
      clock: services.clock,
      syncClock,
      registry: metrics.registry,
    });
    cloudProviderRoutes(api, services);
    addonRoutes(api, services);
    apiKeyRoutes(api, services);
    billingRoutes(api, services);
    orgRoutes(api, services);
    webhookRoutes(api, services);
    metricsRoutes(api, services);
  });

  // Without an API key: the invitation's token is what admits it.
  await app.register(async (scope) => invitationRoutes(scope, services));

  // Outside the API's scope, so no rule can keep its owner from ending it.
  await app.register(async (scope) => {
    requireApiKey(scope, services);
    chaosRoutes(scope, services);
  });

  const testClock = deps.testClock;
  if (testClock) {
    await app.register(async (scope) => {
      requireApiKey(scope, services);
      checkIfMatch(scope);
      testClockRoutes(scope, testClock);
    });
  }

  const instance = deps.instance;
  if (instance) {
    await app.register(async (scope) => {
      requireApiKey(scope, services);
      instanceRoutes(scope, instance, services.clock, { maxBytes: config.snapshotMaxBytes });
    });
  }

  const missing = [...served].filter((id) => !registered.has(id));
  if (missing.length > 0) throw new Error(`endpoints without a route: ${missing.join(', ')}`);
  return app;
}
