import type { Static, TSchema } from '@sinclair/typebox';
import type { SuccessEnvelope, ErrorEnvelope } from '../schemas/envelope.js';
import { apiEndpoints, type ApiEndpoints, type EndpointSpec } from '../schemas/endpoints/index.js';

/** One HTTP exchange: status, headers and the envelope, success or error. */
export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: SuccessEnvelope<T> | ErrorEnvelope;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Query parameters besides those the endpoint declares. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON; a string is sent as it is. */
  body?: unknown;
  /** The version_number the change applies to (sent as If-Match). */
  ifMatch?: number;
  /** The ETag held (sent as If-None-Match); an unchanged record answers 304 without a body. */
  ifNoneMatch?: string;
  idempotencyKey?: string;
}

/** `'/a/{x}/b/{y}'` → `['x', 'y']`: the path parameters, in order. */
type PathParams<P> = P extends `${string}{${infer Name}}${infer Rest}` ? [Name, ...PathParams<Rest>] : [];
type Strings<T extends unknown[]> = { [I in keyof T]: string };

type Part<E, K extends string> = E extends { readonly [P in K]: infer S extends TSchema } ? Static<S> : never;
/** An argument, optional when every field of its schema is. */
type Argument<E, K extends string> = [Part<E, K>] extends [never]
  ? []
  : object extends Part<E, K>
    ? [value?: Part<E, K>]
    : [value: Part<E, K>];

/** A client method: path parameters in order, then the body, then the query, then options. */
export type ClientMethod<E> = E extends { readonly path: infer P }
  ? (
      ...args: [...Strings<PathParams<P>>, ...Argument<E, 'body'>, ...Argument<E, 'query'>, options?: RequestOptions]
    ) => Promise<ApiResponse<Part<E, 'result'>>>
  : never;

type Table = ApiEndpoints;
type ClientName<K extends keyof Table> = Table[K]['client'];
type Group<N> = N extends `${infer G}.${string}` ? G : never;

/**
 * The client's methods, generated from the endpoint table: `client.<group>.<method>(…)` for
 * `client: 'group.method'`, and `client.<method>(…)` for the few without a group.
 */
export type ClientSurface = {
  [G in Group<ClientName<keyof Table>>]: {
    [K in keyof Table as ClientName<K> extends `${G}.${infer M}` ? M : never]: ClientMethod<Table[K]>;
  };
} & {
  [K in keyof Table as ClientName<K> extends `${string}.${string}` ? never : ClientName<K>]: ClientMethod<Table[K]>;
};

/** One request of an endpoint: its id, its declaration, and the call's path values, body and query. */
export interface EndpointCall {
  path: string;
  body?: unknown;
  query?: Record<string, unknown>;
  options: RequestOptions;
}

/** Sends one request of an endpoint, answering the whole exchange. */
export type Send = (endpointId: string, endpoint: EndpointSpec, call: EndpointCall) => Promise<ApiResponse<unknown>>;

/** A surface whose methods answer the envelope's Result and throw on an error (the console's). */
export type ResultSurface<S = ClientSurface> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Promise<ApiResponse<infer T>>
    ? (...args: A) => Promise<T>
    : ResultSurface<S[K]>;
};

/** The methods of the endpoint table, each sending through `send`. */
function methods(send: (endpointId: string, endpoint: EndpointSpec, call: EndpointCall) => Promise<unknown>) {
  const surface: Record<string, unknown> = {};
  for (const [id, endpoint] of Object.entries(apiEndpoints) as Array<[string, EndpointSpec]>) {
    const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const method = (...args: unknown[]) => {
      const values = args.slice(0, names.length) as string[];
      let at = names.length;
      const body = endpoint.body ? args[at++] : undefined;
      const query = endpoint.query ? (args[at++] as Record<string, unknown> | undefined) : undefined;
      const options = (args[at] as RequestOptions | undefined) ?? {};
      let i = 0;
      const path = endpoint.path.replace(/\{\w+\}/g, () => encodeURIComponent(values[i++] ?? ''));
      return send(id, endpoint, { path, body, ...(query ? { query } : {}), options });
    };
    const [group, name] = endpoint.client.includes('.') ? endpoint.client.split('.') : [undefined, endpoint.client];
    if (group) ((surface[group] ??= {}) as Record<string, unknown>)[name!] = method;
    else surface[name!] = method;
  }
  return surface;
}

/** Builds the client's methods from the endpoint table at run time, as ClientSurface types them. */
export function buildSurface(send: Send): ClientSurface {
  return methods(send) as ClientSurface;
}

/** The same methods for a sender that answers the Result and throws on an error. */
export function buildResultSurface(
  send: (endpointId: string, endpoint: EndpointSpec, call: EndpointCall) => Promise<unknown>,
): ResultSurface {
  return methods(send) as ResultSurface;
}
