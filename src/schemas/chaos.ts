import { Type, type Static } from '@sinclair/typebox';
import { Body, StringEnum, Timestamp } from './helpers.js';
import { Component } from './component.js';
import { errorTypes } from './envelope.js';

/** What a chaos rule does to what it matches. */
export const chaosActions = ['fail', 'latency', 'region_outage'] as const;
export type ChaosAction = (typeof chaosActions)[number];

/** The longest a rule lives: a day, so a forgotten rule cannot outlive a CI run by much. */
export const MAX_CHAOS_TTL_SECONDS = 24 * 3600;
/** The longest latency a rule adds to one request (real time; see docs/chaos.md). */
export const MAX_CHAOS_LATENCY_MS = 10_000;

const methods = ['GET', 'POST', 'PUT', 'DELETE'] as const;

const target = {
  endpoint: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'an operationId of the API (e.g. `createWorkspace`); or give `path`',
    }),
  ),
  method: Type.Optional(StringEnum(methods, { description: 'with `path`: the method it matches (default any)' })),
  path: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      pattern: '^/[A-Za-z0-9._~*{}/-]*$',
      description:
        'a path glob under /controller/v4/v2 (`*` one segment or part of it, `**` any segments), ' +
        'e.g. `/workgroups/*/workspaces`',
    }),
  ),
  region: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 80,
      description: 'platform/region (e.g. `aws/us-east-1`): its workspaces are unavailable while the rule lasts',
    }),
  ),
};

const effect = {
  error_rate: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1, description: 'the share of matching requests that fail (0..1)' }),
  ),
  status: Type.Optional(
    Type.Integer({ minimum: 400, maximum: 599, description: 'the status of an injected failure (default 503)' }),
  ),
  error_type: Type.Optional(
    StringEnum(errorTypes, { description: "an injected failure's ErrorDetails Type (default: the status's)" }),
  ),
  message: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: "an injected failure's Message" })),
  latency_ms: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_CHAOS_LATENCY_MS,
      description: 'latency added to each matching request (ms); with latency_max_ms, the least of a range',
    }),
  ),
  latency_max_ms: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_CHAOS_LATENCY_MS, description: 'the most of a latency range (ms)' }),
  ),
};

export const CreateChaosRuleBody = Component(
  'CreateChaosRuleBody',
  Body(
    {
      ...target,
      ...effect,
      ttl_seconds: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_CHAOS_TTL_SECONDS,
          description: 'how long the rule lasts; this or expires_at is required',
        }),
      ),
      expires_at: Type.Optional(Type.String({ format: 'date-time', maxLength: 64 })),
    },
    {
      description:
        'One of: `error_rate` (with `endpoint` or `path`), `latency_ms` (with `endpoint` or `path`), ' +
        'or `region` alone.',
    },
  ),
);
export type CreateChaosRuleBody = Static<typeof CreateChaosRuleBody>;

export const ChaosRuleRecord = Component(
  'ChaosRuleRecord',
  Type.Object(
    {
      chaos_rule_id: Type.String(),
      org_id: Type.String({ description: 'the organisation whose requests and workspaces it applies to' }),
      action: StringEnum(chaosActions),
      ...target,
      ...effect,
      created_at: Timestamp,
      expires_at: Timestamp,
      hits: Type.Integer({ description: 'requests and steps the rule matched so far' }),
    },
    { description: 'A request-level chaos rule, in force until expires_at.' },
  ),
);
export type ChaosRuleRecord = Static<typeof ChaosRuleRecord>;

export const ChaosRuleParams = Type.Object({ chaos_rule_id: Type.String({ minLength: 1, maxLength: 64 }) });
