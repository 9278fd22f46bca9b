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

export const ServerStatus = Component(
  'ServerStatus',
  Type.Object({
    status: Type.Literal('up'),
    version: Type.String(),
    pid: Type.Integer({ description: 'the process id of the server answering' }),
    started_at: Type.String({ format: 'date-time', description: 'when the process started to listen (wall clock)' }),
    uptime_seconds: Type.Number({ minimum: 0 }),
    url: Type.String({ description: 'the API base URL' }),
    gateway_url: Type.String({ description: 'the data-plane gateway base URL' }),
    console_url: Type.String(),
    driver: Type.String({ description: 'the provisioner driver (ACACIA_DRIVER)' }),
    sim_speed: Type.Number({ description: 'the simulated pace: the factor of realistic durations (ACACIA_SIM_SPEED)' }),
    store: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')], {
      description: 'the kind of store (where it is, is known on the host only: acacia status reads it there)',
    }),
    clock: Type.Union([Type.Literal('system'), Type.Literal('manual')]),
    now: Type.String({ format: 'date-time', description: "the server clock's time (the manual clock's, if so)" }),
    fault_injection: Type.Boolean({ description: 'whether x_test_env is accepted (ACACIA_FAULT_INJECTION)' }),
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
  serverStatus: endpoint({
    method: 'GET',
    path: '/_status',
    summary: 'What runs: version, process, addresses, driver, clock',
    description:
      'Needs no API key. No secret and no store location: the kind of store, the driver, the clock and ' +
      'whether fault injection is on.',
    tags: ['Health'],
    result: Ref(ServerStatus),
    errors: [],
    public: true,
    outsideApi: true,
    client: 'serverStatus',
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
