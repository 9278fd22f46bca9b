import type { TObject, TSchema } from '@sinclair/typebox';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Error statuses an endpoint may answer with besides those every API endpoint may
 * (400, 401, 429 and 500; 413 and 415 where it takes a body).
 */
export type ErrorStatus = 403 | 404 | 409 | 412 | 503;

/** How the client follows an asynchronous change to its end. */
export type Follow =
  /** The Result is an operation id: GET /operations/{id} until succeeded or failed. */
  | 'operation'
  /** The Result is the workspace as the request left it: GET it until its status is stable. */
  | 'workspace'
  /** The Result is the cloud provider: GET it until Active or Failed. */
  | 'cloud-provider'
  /** The Result is a backup InProgress: GET /operations?resource_id={id} until its operation ends. */
  | 'backup';

/**
 * One endpoint of the API, declared once: the HTTP layer serves it, the OpenAPI document
 * describes it and the typed client calls it, all from this declaration.
 */
export interface EndpointSpec {
  readonly method: HttpMethod;
  /** The full path, with `{name}` for each path parameter. */
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly [string];
  readonly params?: TObject;
  readonly query?: TObject;
  readonly body?: TSchema;
  /** The envelope's Result on success; with `produces`, the body's schema. */
  readonly result: TSchema;
  /**
   * The Content-Type of a success that is not the JSON envelope (Prometheus text): the body
   * is the handler's string, sent as it is; errors are still the envelope.
   */
  readonly produces?: string;
  /** The Result type the seed spec declares for this endpoint's 400 and 500 (none is ever sent). */
  readonly errorResult?: TSchema;
  readonly errors: readonly ErrorStatus[];
  /** Answered without an API key (health checks). */
  readonly public?: true;
  /** Outside the API's base path and its hooks (the manual clock, health checks). */
  readonly outsideApi?: true;
  /** Sends the record's version_number as ETag (GET also answers If-None-Match with 304). */
  readonly etag?: true;
  /** Compares If-Match with the record's version_number (412 when it differs). */
  readonly ifMatch?: true;
  /** Takes ?limit=&cursor= and sends the next cursor in X-Next-Cursor. */
  readonly paginated?: true;
  /** The change runs on after the response; how to follow it. */
  readonly follow?: Follow;
  /** Result fields shown this once: a replay of the answer (Idempotency-Key) leaves them out. */
  readonly oneTimeSecrets?: readonly string[];
  /** The envelope's Message on success (default "OK"). */
  readonly message?: string;
  /** The typed client's method: `group.method`, or `method` on the client itself. */
  readonly client: string;
}

/** Declares an endpoint, keeping its literal types (the client's signatures derive from them). */
export function endpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}
