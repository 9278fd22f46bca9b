import { Type } from '@sinclair/typebox';
import { Ref } from '../component.js';
import { ChaosRuleParams, ChaosRuleRecord, CreateChaosRuleBody } from '../chaos.js';
import { endpoint } from './spec.js';

const tags = ['Testing'] as const;
// Beside the manual clock and the reset: routes of the test mode live outside the API's base path.
const all = '/_test/chaos' as const;
const one = `${all}/{chaos_rule_id}` as const;
const note =
  'Only with ACACIA_FAULT_INJECTION=on (otherwise 403 API-Disabled naming the setting), for org-admin keys; ' +
  "rules apply to the key's organisation.";

/** Request-level chaos rules (docs/chaos.md); served only with fault injection on. */
export const chaosEndpoints = {
  createChaosRule: endpoint({
    method: 'POST',
    path: all,
    summary: 'Add a chaos rule',
    description:
      'Fails a share of the requests to an endpoint or route pattern with a given envelope, adds latency to ' +
      `them, or takes a region's workspaces down (gateway 503, their operations fail), until it expires. ${note}`,
    tags,
    outsideApi: true,
    body: Ref(CreateChaosRuleBody),
    result: Ref(ChaosRuleRecord),
    errors: [403],
    message: 'Chaos rule added.',
    client: 'chaos.add',
  }),
  listChaosRules: endpoint({
    method: 'GET',
    path: all,
    summary: 'List chaos rules',
    description: `The rules in force, oldest first, with how often each matched. ${note}`,
    tags,
    outsideApi: true,
    result: Type.Array(Ref(ChaosRuleRecord)),
    errors: [403],
    client: 'chaos.list',
  }),
  clearChaosRules: endpoint({
    method: 'DELETE',
    path: all,
    summary: 'Remove every chaos rule',
    description: `Ends every rule of the organisation at once; the Result is the rules removed. ${note}`,
    tags,
    outsideApi: true,
    result: Type.Array(Ref(ChaosRuleRecord)),
    errors: [403],
    message: 'Chaos rules removed.',
    client: 'chaos.clear',
  }),
  deleteChaosRule: endpoint({
    method: 'DELETE',
    path: one,
    summary: 'Remove a chaos rule',
    description: `Ends the rule at once. ${note}`,
    tags,
    outsideApi: true,
    params: ChaosRuleParams,
    result: Ref(ChaosRuleRecord),
    errors: [403, 404],
    message: 'Chaos rule removed.',
    client: 'chaos.delete',
  }),
} as const;
