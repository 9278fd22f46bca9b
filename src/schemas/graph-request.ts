import { Type, type Static } from '@sinclair/typebox';
import { Component } from './component.js';
import { Body, StringEnum } from './helpers.js';

/**
 * The longest GSQL text or JSON body the console sends to a graph (64 Ki characters: the algorithm library's
 * longest query is a tenth of it, and escaped as JSON it stays under the API's body limit).
 */
export const GRAPH_REQUEST_BODY_LIMIT = 64 * 1024;

export const GraphRequestBody = Component(
  'GraphRequestBody',
  Body(
    {
      method: StringEnum(['GET', 'POST'] as const),
      path: Type.String({
        minLength: 1,
        maxLength: 1024,
        description:
          'the data-plane path: /gsql/v1/schema/graphs[/{graph}], /restpp/builtins/{graph}, /gsql/v1/statements, ' +
          '/restpp/query/{graph}/{query} or /gsql/v1/queries/interpret',
      }),
      query: Type.Optional(
        Type.String({ maxLength: 8192, description: 'the query string, without `?` (repeated keys allowed)' }),
      ),
      body: Type.Optional(
        Type.String({ maxLength: GRAPH_REQUEST_BODY_LIMIT, description: 'the request body: GSQL text or JSON' }),
      ),
    },
    { description: "One request to a workspace's graph, as the console sends it." },
  ),
);
export type GraphRequestBody = Static<typeof GraphRequestBody>;

export const GraphAnswer = Component(
  'GraphAnswer',
  Type.Object(
    {
      status: Type.Integer({ description: "the data plane's HTTP status" }),
      content_type: Type.String(),
      text: Type.String({ description: "the data plane's answer as text (JSON for REST++, printed output for GSQL)" }),
      truncated: Type.Boolean({ description: 'the answer was longer than the console is sent, and was cut' }),
    },
    { description: "What the workspace's data plane answered." },
  ),
);
export type GraphAnswer = Static<typeof GraphAnswer>;
