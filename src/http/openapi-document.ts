import type { TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../domain/errors.js';
import { frameworkErrors, INTERNAL_ERROR } from '../listener/app-errors.js';
import { errorCodes } from '../listener/error-codes.js';
import { components } from '../schemas/component.js';
import { API_PREFIX } from '../schemas/envelope.js';
import { componentExamples, resultExamples } from '../schemas/examples.js';
import {
  apiEndpoints,
  endpointTags,
  type ErrorStatus,
  type Follow,
  type EndpointId,
  type EndpointSpec,
} from '../schemas/endpoints/index.js';

type Json = Record<string, unknown>;

const SCHEMAS = '#/components/schemas/';
const REQUEST_ID = '5f0c2b7e-3d1a-4c8e-9b6f-2a7d4e1c9b30';

/** A TypeBox schema as plain JSON Schema: named schemas referenced under components. */
function jsonSchema(schema: TSchema): Json {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => {
    if (key === '$id') return undefined;
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) return `${SCHEMAS}${value}`;
    return value;
  }) as Json;
}

/** Names of the components a schema refers to, directly or through other components. */
function referenced(schema: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => referenced(s, into));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#') && !into.has(value)) {
        into.add(value);
        referenced(components().get(value), into);
      } else referenced(value, into);
    }
  }
  return into;
}

const followText: Record<Follow, string> = {
  operation:
    '**Asynchronous.** The Result is the id of the operation doing the work: follow it with ' +
    '`GET /operations/{id}` until `state` is `succeeded` or `failed`.',
  workspace:
    '**Asynchronous.** The Result is the workspace as the request left it, in a transitional `status`: follow ' +
    'it with `GET …/workspaces/{workspaceID}` until the status is stable (Active, Stopped, Idle or Failed, ' +
    'with `err_message`; a deleted workspace answers 404), or with `GET /operations?resource_id={workspace_id}`.',
  'cloud-provider':
    '**Asynchronous.** The Result is the provider, Pending: follow it with `GET /cloud-providers/{id}` until ' +
    '`status` is Active or Failed (with `last_error`), or with `GET /operations?resource_id={id}`.',
  backup:
    '**Asynchronous.** The Result is the backup, InProgress: follow it with `GET /operations?resource_id={id}` ' +
    'until its operation ends, or in the backup list until `status` is Succeeded or Failed.',
};

/**
 * How the document presents the errors an endpoint may answer: for each status, the one code
 * its example shows, with the response's component name, when it is answered and an example
 * detail. The status, the Type and the Message are the error table's (src/listener/error-codes.ts),
 * and so are the other codes answered with the same status.
 */
const documentedErrors: Partial<
  Record<ErrorCode, { name: string; description: string; field: string; reason: string }>
> = {
  invalid: {
    name: 'BadRequest',
    description: 'The request is not valid: a field, parameter or header breaks a rule (each one is named).',
    field: 'name',
    reason: 'must be at most 64 characters long',
  },
  unauthenticated: {
    name: 'Unauthorized',
    description: 'No API key, or one that is unknown, expired or revoked.',
    field: 'x-api-key',
    reason: 'the API key is not valid',
  },
  forbidden: {
    name: 'Forbidden',
    description: "The key's role does not allow this.",
    field: 'x-api-key',
    reason: 'role viewer may not change workspaces',
  },
  'not-found': {
    name: 'NotFound',
    description: 'The resource does not exist, or belongs to another organisation.',
    field: 'workspaceID',
    reason: 'no workspace "3c9e7f21-5a4b-4d8c-9e1f-7b2a6c3d4e5f" in this workgroup',
  },
  conflict: {
    name: 'Conflict',
    description: "The resource's state forbids the request now; the Reason says which state would allow it.",
    field: 'status',
    reason: 'the workspace is Resuming; to resize, change HA or upgrade it must be Active',
  },
  precondition: {
    name: 'PreconditionFailed',
    description: 'If-Match names another version_number than the current one.',
    field: 'If-Match',
    reason: 'the workspace is at version 4, not 3',
  },
  'payload-too-large': {
    name: 'PayloadTooLarge',
    description: 'The body is larger than 1 MiB.',
    ...frameworkErrors.FST_ERR_CTP_BODY_TOO_LARGE!,
  },
  'unsupported-media-type': {
    name: 'UnsupportedMediaType',
    description: 'The body is not application/json.',
    ...frameworkErrors.FST_ERR_CTP_INVALID_MEDIA_TYPE!,
  },
  'rate-limited': {
    name: 'TooManyRequests',
    description: 'The API key sent more requests this minute than the rate limit allows.',
    field: 'x-api-key',
    reason: 'at most 6000 requests per minute per API key; retry in 12 seconds',
  },
  internal: {
    name: 'InternalError',
    description: 'An error on the server; the log has the details under the same RequestID.',
    ...INTERNAL_ERROR,
  },
  unavailable: {
    name: 'Unavailable',
    description: 'A part of the service is not ready; each one is named.',
    field: 'store',
    reason: 'is not ready',
  },
};

const allCodes = Object.keys(errorCodes) as ErrorCode[];

/** A documented error response: what the table says of its code, and how the document shows it. */
interface ErrorResponse {
  status: number;
  name: string;
  description: string;
  example: Json;
}

const errorResponses = new Map<number, ErrorResponse>();
for (const [code, doc] of Object.entries(documentedErrors) as Array<
  [ErrorCode, NonNullable<(typeof documentedErrors)[ErrorCode]>]
>) {
  const { status, type, message } = errorCodes[code];
  if (errorResponses.has(status)) throw new Error(`two documented errors for status ${status}`);
  // Every code answered with this status is described, its own sentence first, then the table's
  // message of each other; each with its Type when they differ.
  const codes = [code, ...allCodes.filter((c) => c !== code && errorCodes[c].status === status)];
  const typed = new Set(codes.map((c) => errorCodes[c].type)).size > 1;
  const description = codes
    .map((c) => (c === code ? doc.description : errorCodes[c].message))
    .map((sentence, i) => (typed ? `${sentence.replace(/\.$/, '')} (${errorCodes[codes[i]!].type}).` : sentence))
    .join(' ');
  const example = {
    Error: true,
    ErrorDetails: [{ FieldName: doc.field, Reason: doc.reason, Type: type }],
    Message: message,
    RequestID: REQUEST_ID,
  };
  errorResponses.set(status, { status, name: doc.name, description, example });
}

/** The documented error response answered with this status. */
function errorResponse(status: number): ErrorResponse {
  const response = errorResponses.get(status);
  if (!response) throw new Error(`no documented error response for status ${status}`);
  return response;
}

/** "Bad-Request 400, 409 or 412; Unauthorized 401; …": each Type with the statuses it comes with. */
const typesAndStatuses = (() => {
  const byType = new Map<string, Set<number>>();
  for (const code of allCodes) {
    const { type, status } = errorCodes[code];
    byType.set(type, (byType.get(type) ?? new Set()).add(status));
  }
  return [...byType]
    .map(([type, statuses]) => {
      const list = [...statuses].sort((a, b) => a - b);
      return `${type} ${list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list.at(-1)}` : list[0]}`;
    })
    .join('; ');
})();

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

const headers = {
  'X-Request-ID': header('The request id: the X-Request-ID sent (up to 128 safe characters) or a new UUID.'),
  ETag: header('The version_number of the record, quoted ("3"); send it in If-Match to change only that version.'),
  'X-Next-Cursor': header('The cursor of the next page (give it as ?cursor=); absent on the last page.'),
  'Retry-After': header(
    'Seconds to wait before retrying: until the rate limit lets a request through again (429), or the store may be ' +
      'reachable again (503).',
    { type: 'integer' },
  ),
  'RateLimit-Limit': header("Requests per minute the API key may send (absent when there's no limit).", {
    type: 'integer',
  }),
  'RateLimit-Remaining': header('Requests left in the current window.', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until the window resets.', { type: 'integer' }),
  'Idempotent-Replayed': header('"true" on the replay of an earlier response to the same Idempotency-Key.'),
};
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const rateLimitHeaders = {
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
};

const parameters = {
  XRequestId: {
    name: 'X-Request-ID',
    in: 'header',
    required: false,
    description: 'An id to trace the request by (up to 128 of A-Z a-z 0-9 . _ : -); echoed in RequestID.',
    schema: { type: 'string', maxLength: 128, pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'Apply only if the record is at this version_number: "3", W/"3" or 3 (* = any); else 412.',
    schema: { type: 'string', maxLength: 64 },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag held: while the record is at that version the answer is 304 without a body.',
    schema: { type: 'string', maxLength: 256 },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Run the request once per key for 24 hours: a repeat gets the first response (Idempotent-Replayed: ' +
      'true); the same key with another body is 400. 1-255 visible ASCII characters.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
};

const apiDescription = `Acacia serves the Workspace and Workgroup Management REST interface: workgroups, workspaces,
databases, schedules, backups, allow lists, add-ons and bring-your-own-cloud providers.

## Authentication

Every operation under \`${API_PREFIX}\` needs an API key, sent in either header:

\`\`\`
x-api-key: acacia_sk_…
Authorization: Bearer acacia_sk_…
\`\`\`

A request carrying both must carry the same key in each. A server's first key is printed when it starts
on an empty store (and saved in \`data/bootstrap-key\`); more come from \`POST /apikeys\` or \`acacia apikeys create\`.

## The envelope

Every JSON response, success or error, is the envelope:

\`\`\`json
{"Error": false, "ErrorDetails": [], "Message": "OK", "RequestID": "5f0c2b7e-…", "Result": { … }}
{"Error": true, "ErrorDetails": [{"FieldName": "cloud_provider_id", "Reason": "is required", "Type": "Bad-Request"}],
 "Message": "The request is not valid.", "RequestID": "5f0c2b7e-…"}
\`\`\`

Successes are 200. An error names each field at fault; \`Type\` says its kind (${typesAndStatuses}).

## Changes that take time

Creating, pausing, resuming, resizing, restoring and deleting a workspace, taking a backup and provisioning a
cloud provider answer at once and go on in the background. Each such operation says how to follow it:
\`GET /operations/{id}\`, or the resource's status.

## Versions and retries

Records carry \`version_number\`; reads send it as \`ETag\`, and \`If-Match\` makes a change apply only to that
version (412 otherwise). A POST with \`Idempotency-Key\` runs once per key.`;

function responseHeaders(endpoint: EndpointSpec, api: boolean): Json {
  const out: Json = { 'X-Request-ID': ref('headers', 'X-Request-ID') };
  if (api) Object.assign(out, rateLimitHeaders);
  if (endpoint.etag) out.ETag = ref('headers', 'ETag');
  if (endpoint.paginated) out['X-Next-Cursor'] = ref('headers', 'X-Next-Cursor');
  if (api && endpoint.method === 'POST') out['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
  return out;
}

function exampleResult(id: string, endpoint: EndpointSpec): unknown {
  if (id in resultExamples) return resultExamples[id];
  const result = endpoint.result as Json;
  const name = (s: Json) => (typeof s.$ref === 'string' ? s.$ref : undefined);
  if (name(result)) return componentExamples[name(result)!];
  const items = result.items as Json | undefined;
  if (result.type === 'array' && items && name(items)) {
    const item = componentExamples[name(items)!];
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

/** A success in the envelope: its Result is the endpoint's. */
function envelopeContent(endpoint: EndpointSpec, example: unknown): Json {
  return {
    'application/json': {
      schema: jsonSchema({
        type: 'object',
        required: ['Error', 'ErrorDetails', 'Message', 'RequestID', 'Result'],
        properties: {
          Error: { const: false, type: 'boolean' },
          ErrorDetails: { type: 'array', maxItems: 0, items: { $ref: 'ErrorDetail' } },
          Message: { type: 'string' },
          RequestID: { type: 'string' },
          Result: endpoint.result,
        },
      } as unknown as TSchema),
      ...(example === undefined
        ? {}
        : {
            example: {
              Error: false,
              ErrorDetails: [],
              Message: endpoint.message ?? 'OK',
              RequestID: REQUEST_ID,
              Result: example,
            },
          }),
    },
  };
}

/** A success that is not the envelope (Prometheus text): its media type without parameters. */
function textContent(id: string, endpoint: EndpointSpec): Json {
  const mediaType = endpoint.produces!.split(';')[0]!.trim();
  const example = resultExamples[id];
  return {
    [mediaType]: {
      schema: jsonSchema(endpoint.result),
      ...(typeof example === 'string' ? { example } : {}),
    },
  };
}

function operationObject(id: string, endpoint: EndpointSpec): Json {
  const api = !endpoint.outsideApi;
  const secured = !endpoint.public;
  const params: Json[] = [];
  for (const [where, schema] of [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const) {
    if (!schema) continue;
    const json = jsonSchema(schema);
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, s] of Object.entries(json.properties as Record<string, Json>)) {
      const { description, ...rest } = s;
      params.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  params.push(ref('parameters', 'XRequestId'));
  if (endpoint.ifMatch) params.push(ref('parameters', 'IfMatch'));
  if (endpoint.etag && endpoint.method === 'GET') params.push(ref('parameters', 'IfNoneMatch'));
  if (api && endpoint.method === 'POST') params.push(ref('parameters', 'IdempotencyKey'));

  const example = exampleResult(id, endpoint);
  const responses: Json = {
    200: {
      description: endpoint.summary,
      headers: responseHeaders(endpoint, api),
      content: endpoint.produces ? textContent(id, endpoint) : envelopeContent(endpoint, example),
    },
  };
  if (endpoint.etag && endpoint.method === 'GET')
    responses[304] = {
      description: 'Not modified: the record is still at the version named in If-None-Match.',
      headers: { ETag: ref('headers', 'ETag'), 'X-Request-ID': ref('headers', 'X-Request-ID') },
    };
  const statuses = new Set<number>([400, 500, ...(endpoint.errors as readonly ErrorStatus[])]);
  if (secured) statuses.add(401);
  if (api) statuses.add(429);
  if (endpoint.body) [413, 415].forEach((s) => statuses.add(s));
  for (const status of [...statuses].sort()) {
    if (endpoint.errorResult && (status === 400 || status === 500)) {
      // The seed spec declares a Result for these statuses; none is ever sent.
      const base = errorResponse(status);
      responses[status] = {
        description: base.description,
        headers: { 'X-Request-ID': ref('headers', 'X-Request-ID') },
        content: {
          'application/json': {
            schema: {
              allOf: [{ $ref: `${SCHEMAS}ErrorEnvelope` }],
              properties: { Result: jsonSchema(endpoint.errorResult) },
            },
            example: base.example,
          },
        },
      };
    } else responses[status] = ref('responses', errorResponse(status).name);
  }

  let description = endpoint.description;
  if (endpoint.follow) description += `\n\n${followText[endpoint.follow]}`;
  return {
    operationId: id,
    summary: endpoint.summary,
    description,
    tags: [...endpoint.tags],
    ...(secured ? {} : { security: [] }),
    parameters: params,
    ...(endpoint.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(endpoint.body) } } } }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the endpoints a server serves, generated from the endpoint
 * table and the TypeBox schemas (src/schemas): the same declarations the routes validate and
 * serialise with and the typed client calls.
 */
export function openApiDocument(version: string, served: ReadonlySet<EndpointId>): Json {
  const paths: Record<string, Json> = {};
  const used = new Set<string>(['ErrorEnvelope', 'ErrorDetail']);
  for (const [id, endpoint] of Object.entries(apiEndpoints) as Array<[EndpointId, EndpointSpec]>) {
    if (!served.has(id)) continue;
    for (const part of [endpoint.params, endpoint.query, endpoint.body, endpoint.result, endpoint.errorResult])
      if (part) referenced(part, used);
    const item = (paths[endpoint.path] ??= {});
    item[endpoint.method.toLowerCase()] = operationObject(id, endpoint);
  }
  paths['/metrics'] = {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      description: 'The text exposition format. Needs no API key.',
      tags: ['Health'],
      security: [],
      responses: {
        200: { description: 'The metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
        400: ref('responses', 'BadRequest'),
      },
    },
  };

  const schemas: Record<string, Json> = {};
  for (const name of [...used].sort()) {
    const schema = jsonSchema(components().get(name)!);
    const example = componentExamples[name];
    schemas[name] = example === undefined ? schema : { ...schema, examples: [example] };
  }
  const responses: Record<string, Json> = {};
  for (const e of errorResponses.values()) {
    // Retry-After comes with the rate limit's 429 and with every code the table gives one.
    const retryAfter =
      e.status === 429 || allCodes.some((c) => errorCodes[c].status === e.status && errorCodes[c].retryAfter);
    responses[e.name] = {
      description: e.description,
      headers: {
        'X-Request-ID': ref('headers', 'X-Request-ID'),
        ...(retryAfter ? { 'Retry-After': ref('headers', 'Retry-After') } : {}),
        ...(e.status === 429 ? rateLimitHeaders : {}),
      },
      content: { 'application/json': { schema: ref('schemas', 'ErrorEnvelope'), example: e.example } },
    };
  }
  const tagsUsed = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((o) => (o as Json).tags as string[])),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Acacia control plane API',
      version,
      description: apiDescription,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    // Relative: the server that serves the document. Never the Host a request names, which
    // any client may set, and a cache would keep for the next one.
    servers: [{ url: '/', description: 'the server that serves this document' }],
    tags: endpointTags.filter((t) => tagsUsed.has(t.name)),
    security: [{ 'x-api-key': [] }, { bearer: [] }],
    paths,
    components: {
      schemas,
      responses,
      parameters,
      headers,
      securitySchemes: {
        'x-api-key': { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An Acacia API key.' },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The same API key as `Authorization: Bearer <key>`, as the real service documents it.',
        },
      },
    },
  };
}
