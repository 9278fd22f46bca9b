import { InvalidArgumentError, type Command } from 'commander';
import { resultOf } from '../../client/index.js';
import type { CreateChaosRuleBody } from '../../schemas/chaos.js';
import { apiCommand, commandOf } from '../api-command.js';
import { contextOf } from '../context.js';
import { parseDuration } from '../follow.js';
import { render, type View } from '../output.js';

const view: View = {
  id: (r) => r.chaos_rule_id,
  columns: [
    ['CHAOS_RULE_ID', (r) => r.chaos_rule_id],
    ['ACTION', (r) => r.action],
    ['MATCHES', (r) => r.region ?? r.endpoint ?? `${r.method ?? '*'} ${r.path}`],
    [
      'EFFECT',
      (r) =>
        r.action === 'fail'
          ? `${r.error_rate} → ${r.status}`
          : r.action === 'latency'
            ? `${r.latency_ms}${r.latency_max_ms !== undefined ? `-${r.latency_max_ms}` : ''}ms`
            : 'unavailable',
    ],
    ['HITS', (r) => String(r.hits)],
    ['EXPIRES_AT', (r) => r.expires_at],
  ],
};

/** `200ms`, `1s` or a range `100ms-2s`, as milliseconds. */
function parseLatency(raw: string): { min: number; max?: number } {
  const [low, high, ...rest] = raw.split('-');
  if (rest.length > 0 || !low) throw new InvalidArgumentError('takes a latency such as 200ms or a range 100ms-2s');
  const unit = (v: string) => parseDuration(/^\d+(\.\d+)?$/.test(v) ? `${v}ms` : v);
  return high === undefined ? { min: unit(low) } : { min: unit(low), max: unit(high) };
}

const number = (name: string) => (raw: string) => {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} takes a number`);
  return n;
};

interface AddOptions {
  endpoint?: string;
  method?: string;
  path?: string;
  region?: string;
  errorRate?: number;
  status?: number;
  errorType?: string;
  message?: string;
  latency?: { min: number; max?: number };
  ttl?: number;
  expiresAt?: string;
}

/** The body of `chaos add` from its flags; the server checks it and names what is wrong. */
function bodyOf(o: AddOptions): CreateChaosRuleBody {
  const body: Record<string, unknown> = {
    endpoint: o.endpoint,
    method: o.method?.toUpperCase(),
    path: o.path,
    region: o.region,
    error_rate: o.errorRate,
    status: o.status,
    error_type: o.errorType,
    message: o.message,
    latency_ms: o.latency?.min,
    latency_max_ms: o.latency?.max,
    ttl_seconds: o.ttl === undefined ? undefined : Math.ceil(o.ttl / 1000),
    expires_at: o.expiresAt,
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body as CreateChaosRuleBody;
}

export function chaosCommands(program: Command): void {
  const group = program
    .command('chaos')
    .description('Request-level chaos rules (needs ACACIA_FAULT_INJECTION=on; docs/chaos.md)');
  group
    .command('add')
    .description('Add a chaos rule: fail or slow an endpoint or route, or take a region down, for a while')
    .option('--endpoint <operationId>', 'the endpoint it matches, e.g. createWorkspace')
    .option('--path <glob>', 'or a route pattern under /controller/v4/v2, e.g. /workgroups/*')
    .option('--method <method>', 'with --path: the method it matches (default any)')
    .option('--region <platform/region>', 'take the region down: gateway 503, its operations fail')
    .option('--error-rate <rate>', 'share of matching requests that fail, 0..1', number('--error-rate'))
    .option('--status <status>', 'the status of an injected failure (default 503)', number('--status'))
    .option('--error-type <type>', "an injected failure's Type (default: the status's)")
    .option('--message <text>', "an injected failure's Message")
    .option('--latency <duration>', 'latency to add: 200ms, or a range 100ms-2s', parseLatency)
    .option('--ttl <duration>', 'how long the rule lasts: 90s, 10m, 1h (this or --expires-at)', parseDuration)
    .option('--expires-at <time>', 'when the rule ends, RFC 3339')
    .action(async (opts: AddOptions, command: Command) => {
      const ctx = contextOf(command);
      render(ctx, resultOf(await ctx.client.chaos.add(bodyOf(opts))), view);
    });
  commandOf.set('createChaosRule', 'chaos add');
  apiCommand(group, { verb: 'list', endpoint: 'listChaosRules', aliases: ['ls'], view });
  group
    .command('clear [id]')
    .description('Remove one chaos rule, or every rule of the organisation')
    .action(async (id: string | undefined, _opts: unknown, command: Command) => {
      const ctx = contextOf(command);
      if (id === undefined) render(ctx, resultOf(await ctx.client.chaos.clear()), view);
      else render(ctx, resultOf(await ctx.client.chaos.delete(id)), view);
    });
  commandOf.set('clearChaosRules', 'chaos clear');
  commandOf.set('deleteChaosRule', 'chaos clear <id>');
}
