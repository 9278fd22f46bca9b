import { Type } from '@sinclair/typebox';
import { Body } from '../helpers.js';
import { Component, Ref } from '../component.js';
import { endpoint } from './spec.js';

const Health = Component('Health', Type.Object({ status: Type.Literal('ok') }));
const Readiness = Component(
  'Readiness',
  Type.Object({
    status: Type.Literal('ready'),
    checks: Type.Record(Type.String(), Type.Boolean(), { description: 'each part, and whether it is ready' }),
  }),
);

const ClockBody = Component(
  'ClockBody',
  Body({
    advance_seconds: Type.Optional(Type.Number({ minimum: 0, maximum: 366 * 24 * 3600 })),
    now: Type.Optional(Type.String({ format: 'date-time', maxLength: 64 })),
    skip_due: Type.Optional(
      Type.Boolean({
        description: 'move at once, as if the process had been down meanwhile, then run what is due (late)',
      }),
    ),
  }),
);

/** Health checks, and the manual clock (served only with ACACIA_CLOCK=manual). */
export const operabilityEndpoints = {
  health: endpoint({
    method: 'GET',
    path: '/healthz',
    summary: 'The process is up',
    description: 'Needs no API key.',
    tags: ['Health'],
    result: Ref(Health),
    errors: [],
    public: true,
    outsideApi: true,
    client: 'health',
  }),
  ready: endpoint({
    method: 'GET',
    path: '/readyz',
    summary: 'The store and the engine are ready',
    description: 'Needs no API key; 503 names each part that is not ready.',
    tags: ['Health'],
    result: Ref(Readiness),
    errors: [503],
    public: true,
    outsideApi: true,
    client: 'ready',
  }),
  moveTestClock: endpoint({
    method: 'POST',
    path: '/_test/clock',
    summary: 'Move the manual clock',
    description:
      'Only with ACACIA_CLOCK=manual, for org-admin keys. Give `advance_seconds` or `now`: the clock moves ' +
      'forward, stopping at every instant something falls due so each runs at its own time, and answers when ' +
      'all of it ran.',
    tags: ['Testing'],
    body: Ref(ClockBody),
    result: Type.Object({ now: Type.String({ description: 'the time now, RFC 3339' }) }),
    errors: [403],
    outsideApi: true,
    client: 'moveClock',
  }),
  resetInstance: endpoint({
    method: 'POST',
    path: '/_test/reset',
    summary: 'Empty the instance but for the bootstrap key',
    description:
      'Only in test mode (ACACIA_CLOCK=manual or ACACIA_FAULT_INJECTION=on; 403 otherwise, naming the setting), ' +
      'for org-admin keys of the bootstrap organisation. Removes every resource, operation, event and other ' +
      "organisation, stops the workspaces' processes and starts the id sequence of ACACIA_ID_SEED afresh; the " +
      'bootstrap key keeps working and the manual clock keeps its time. Resetting an empty instance changes nothing.',
    tags: ['Testing'],
    result: Type.Object({ now: Type.String({ description: 'the time now, RFC 3339' }) }),
    errors: [403],
    outsideApi: true,
    client: 'reset',
  }),
} as const;
