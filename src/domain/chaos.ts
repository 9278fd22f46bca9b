import type { Store, Tx } from '../store/store.js';
import {
  chaosRulesFingerprint,
  countChaosHit,
  countLiveChaosRules,
  deleteChaosRules,
  deleteExpiredChaosRules,
  findChaosRule,
  insertChaosRule,
  listLiveChaosRules,
  type ChaosRuleRow,
} from '../store/repositories/chaos-rules.js';
import { lockRow } from '../store/repositories/row-locks.js';
import { platforms, type Platform } from '../schemas/catalog.js';
import {
  MAX_CHAOS_TTL_SECONDS,
  type ChaosAction,
  type ChaosRuleRecord,
  type CreateChaosRuleBody,
} from '../schemas/chaos.js';
import { API_PREFIX, type ErrorDetail } from '../schemas/envelope.js';
import { apiEndpoints } from '../schemas/endpoints/index.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import { AppError, notFound, Problems } from './errors.js';
import { newId } from './ids.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount } from './quotas.js';
import { iso } from './time.js';

export type ChaosRule = ChaosRuleRow;

export interface ChaosSettings {
  /** ACACIA_FAULT_INJECTION: without it the routes refuse and nothing is ever matched. */
  enabled: boolean;
  /** ACACIA_CHAOS_MAX_RULES: rules in force per organisation. */
  maxRules: number;
  /** How often (real time) a process looks whether another changed the rules. */
  refreshMs?: number;
}

/** What an injected failure answers: the status and the envelope's Type and Message. */
export interface InjectedFailure {
  status: number;
  type: ErrorDetail['Type'];
  message: string;
  reason: string;
}

const typeOfStatus = (status: number): ErrorDetail['Type'] =>
  status === 401
    ? 'Unauthorized'
    : status === 403
      ? 'Forbidden'
      : status === 404
        ? 'Not-Found'
        : status === 429
          ? 'Quota-Exceed'
          : status >= 500
            ? 'Internal-Error'
            : 'Bad-Request';

/** The endpoints a rule may name: the API's, not the test routes outside it nor its own. */
const ruleEndpoints: ReadonlySet<string> = new Set(
  Object.entries(apiEndpoints)
    .filter(([, e]) => !('outsideApi' in e) && !e.path.includes('/test/'))
    .map(([id]) => id),
);

/** The realistic default: what the managed service answers when it is briefly unavailable. */
const DEFAULT_STATUS = 503;
const DEFAULT_MESSAGE = 'The service is unavailable.';

export const faultInjectionOffError = (): AppError =>
  new AppError(
    'disabled',
    {
      field: 'ACACIA_FAULT_INJECTION',
      reason:
        'chaos rules are fault injection, off on this server; the operator turns it on with ACACIA_FAULT_INJECTION=on',
    },
    'Fault injection is off on this server.',
  );

/** `/workgroups/*` → a RegExp of the path under the API prefix: `*` one segment or part, `**` any. */
export function pathPattern(glob: string): RegExp {
  const rel = glob.startsWith(API_PREFIX) ? glob.slice(API_PREFIX.length) || '/' : glob;
  const source = rel
    .replace(/\/+$/, '')
    .split(/(\*\*|\*|\{\w+\})/)
    .map((part) =>
      part === '**'
        ? '.*'
        : part === '*'
          ? '[^/]*'
          : /^\{\w+\}$/.test(part)
            ? '[^/]+'
            : part.replace(/[.+?^$()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}/?$`);
}

/** The path of a request under the API prefix, without its query. */
export function apiPath(url: string): string {
  const path = url.split('?')[0]!;
  return path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) || '/' : path;
}

function actionOf(rule: ChaosRule): ChaosAction {
  if (rule.region !== null) return 'region_outage';
  return rule.latency_min_ms !== null ? 'latency' : 'fail';
}

export function chaosRecord(rule: ChaosRule): ChaosRuleRecord {
  const opt = <K extends string, V>(key: K, value: V | null) =>
    (value === null ? {} : { [key]: value }) as Partial<Record<K, V>>;
  return {
    chaos_rule_id: rule.id,
    org_id: rule.org_id,
    action: actionOf(rule),
    ...opt('endpoint', rule.endpoint),
    ...(rule.method !== null ? { method: rule.method as 'GET' } : {}),
    ...opt('path', rule.path),
    ...(rule.platform !== null ? { region: `${rule.platform}/${rule.region}` } : {}),
    ...(rule.error_rate_ppm !== null ? { error_rate: rule.error_rate_ppm / 1e6 } : {}),
    ...opt('status', rule.status),
    ...(rule.error_type !== null ? { error_type: rule.error_type as ErrorDetail['Type'] } : {}),
    ...opt('message', rule.message),
    ...opt('latency_ms', rule.latency_min_ms),
    ...(rule.latency_max_ms !== null && rule.latency_max_ms !== rule.latency_min_ms
      ? { latency_max_ms: rule.latency_max_ms }
      : {}),
    created_at: iso(rule.created_at),
    expires_at: iso(rule.expires_at),
    hits: rule.hits,
  };
}

/**
 * Whether hit number `n` (1-based) of a rule failing at `ppm` millionths fails: spread
 * evenly and deterministically, so of any n matching requests round-down(n × rate) fail
 * (rate 0.5 fails every second one), on every process alike since the count is the store's.
 */
export const failsAt = (n: number, ppm: number): boolean =>
  Math.floor((n * ppm) / 1e6) > Math.floor(((n - 1) * ppm) / 1e6);

/**
 * Request-level chaos (fault injection): rules kept in the store, applied by every process
 * from a copy in memory. A request costs no statement while no rule matches it: the copy is
 * filtered by the clock (so a rule ends by itself on the manual clock too), reloaded at once
 * after this process changes the rules and within `refreshMs` (real time) of another
 * process's change, found by one small read on a timer, never per request. A request a rule
 * matches costs one write: its hit is counted in the store, which also decides which hits of
 * an error rate fail.
 */
export class ChaosService {
  private rules: readonly ChaosRule[] = [];
  private fingerprint: string | undefined;
  private stale = true;
  private loading: Promise<void> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly patterns = new Map<string, RegExp>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly settings: ChaosSettings,
  ) {}

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /** Loads the rules and starts looking for other processes' changes; nothing when fault injection is off. */
  async start(): Promise<void> {
    if (!this.enabled || this.timer) return;
    await this.refresh();
    this.timer = setInterval(() => {
      void chaosRulesFingerprint(this.store.db)
        .then((print) => {
          if (print !== this.fingerprint) this.stale = true;
        })
        .catch(() => undefined);
    }, this.settings.refreshMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Brings the copy up to date when a change was seen; a no-op (no statement) otherwise. */
  async current(): Promise<void> {
    if (this.enabled && this.stale) await this.refresh();
  }

  private refresh(): Promise<void> {
    this.loading ??= (async () => {
      try {
        this.stale = false;
        const print = await chaosRulesFingerprint(this.store.db);
        this.rules = await listLiveChaosRules(this.store.db, this.clock.now());
        this.fingerprint = print;
      } catch (err) {
        this.stale = true;
        throw err;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  private live(orgId: string): ChaosRule[] {
    const now = this.clock.now();
    return this.rules.filter((r) => r.org_id === orgId && r.expires_at > now);
  }

  /** Whether a request may have a rule to meet: the cheap test every request makes first. */
  get any(): boolean {
    return this.stale || this.rules.length > 0;
  }

  /** The first fail rule and the first latency rule matching a request of the organisation. */
  matchRequest(
    orgId: string,
    endpointId: string | undefined,
    method: string,
    url: string,
  ): { fail?: ChaosRule; latency?: ChaosRule } {
    if (this.rules.length === 0) return {};
    const found: { fail?: ChaosRule; latency?: ChaosRule } = {};
    let path: string | undefined;
    for (const rule of this.live(orgId)) {
      if (rule.region !== null) continue;
      if (rule.endpoint !== null) {
        if (rule.endpoint !== endpointId) continue;
      } else if (rule.path !== null) {
        if (rule.method !== null && rule.method !== method) continue;
        path ??= apiPath(url);
        if (!this.pattern(rule.path).test(path)) continue;
      }
      const action = actionOf(rule);
      if (action === 'fail') found.fail ??= rule;
      else found.latency ??= rule;
    }
    return found;
  }

  /** The outage rule of the organisation covering the platform and region, if any. */
  regionDown(orgId: string, platform: string, region: string): ChaosRule | undefined {
    if (this.rules.length === 0) return undefined;
    return this.live(orgId).find((r) => r.platform === platform && r.region === region);
  }

  /** Whether any outage rule is in force: only then is a step's region looked up. */
  get anyOutage(): boolean {
    const now = this.clock.now();
    return this.rules.some((r) => r.region !== null && r.expires_at > now);
  }

  /** Counts a match; the hit's number, or undefined when the rule went meanwhile. */
  async hit(rule: ChaosRule): Promise<number | undefined> {
    return this.store.transaction((tx) => countChaosHit(tx, rule.id));
  }

  /** Whether the rule's hit number `n` fails (its error rate, spread evenly). */
  failsNow(rule: ChaosRule, n: number): boolean {
    return failsAt(n, rule.error_rate_ppm ?? 0);
  }

  /** The failure a fail rule answers with. */
  failure(rule: ChaosRule): InjectedFailure {
    const status = rule.status ?? DEFAULT_STATUS;
    return {
      status,
      type: (rule.error_type as ErrorDetail['Type'] | null) ?? typeOfStatus(status),
      message: rule.message ?? DEFAULT_MESSAGE,
      reason: `injected by chaos rule ${rule.id}`,
    };
  }

  /** A latency rule's delay for one request: fixed, or drawn from its range. */
  delayMs(rule: ChaosRule): number {
    const min = rule.latency_min_ms ?? 0;
    const max = rule.latency_max_ms ?? min;
    return max > min ? min + Math.floor(Math.random() * (max - min + 1)) : min;
  }

  private pattern(glob: string): RegExp {
    let re = this.patterns.get(glob);
    if (!re) {
      if (this.patterns.size > 1000) this.patterns.clear();
      re = pathPattern(glob);
      this.patterns.set(glob, re);
    }
    return re;
  }

  private check(p: Principal): void {
    if (!this.enabled) throw faultInjectionOffError();
    authorize(p, 'org:admin');
  }

  async create(p: Principal, body: CreateChaosRuleBody, outer?: Tx): Promise<ChaosRuleRecord> {
    this.check(p);
    const now = this.clock.now();
    const rule = this.ruleOf(p, body, now);
    await this.store.unit(outer, async (tx) => {
      // Locked first, so concurrent adds count one after another and cannot overshoot the cap together.
      await lockRow(tx.db, 'organisations', p.orgId);
      await deleteExpiredChaosRules(tx.db, now);
      checkCount(
        'body',
        await countLiveChaosRules(tx.db, p.orgId, now),
        this.settings.maxRules,
        'chaos rules in force per organisation (ACACIA_CHAOS_MAX_RULES)',
      );
      await insertChaosRule(tx, rule);
      tx.afterCommit(() => (this.stale = true));
    });
    await this.current();
    return chaosRecord({ ...rule, hits: 0 });
  }

  async list(p: Principal): Promise<ChaosRuleRecord[]> {
    this.check(p);
    return (await listLiveChaosRules(this.store.db, this.clock.now(), p.orgId)).map(chaosRecord);
  }

  async delete(p: Principal, id: string): Promise<ChaosRuleRecord> {
    this.check(p);
    const rule = await findChaosRule(this.store.db, p.orgId, id);
    if (!rule || rule.expires_at <= this.clock.now()) throw notFound('chaos_rule_id', `no chaos rule "${id}"`);
    await this.store.transaction(async (tx) => {
      await deleteChaosRules(tx, p.orgId, id);
      tx.afterCommit(() => (this.stale = true));
    });
    await this.current();
    return chaosRecord(rule);
  }

  async clear(p: Principal): Promise<ChaosRuleRecord[]> {
    this.check(p);
    const rules = await listLiveChaosRules(this.store.db, this.clock.now(), p.orgId);
    await this.store.transaction(async (tx) => {
      await deleteChaosRules(tx, p.orgId);
      tx.afterCommit(() => (this.stale = true));
    });
    await this.current();
    return rules.map(chaosRecord);
  }

  /** The row a body asks for, or 400 naming every field that is wrong. */
  private ruleOf(p: Principal, body: CreateChaosRuleBody, now: number): Omit<ChaosRule, 'hits'> {
    const problems = new Problems();
    const outage = body.region !== undefined;
    const failing = body.error_rate !== undefined;
    const slow = body.latency_ms !== undefined || body.latency_max_ms !== undefined;
    let platform: Platform | null = null;
    let region: string | null = null;
    if (outage) {
      const [plat, reg, ...rest] = body.region!.split('/');
      if (!platforms.includes(plat as Platform) || !reg || rest.length > 0)
        problems.add('region', `must be platform/region, the platform one of ${platforms.join(', ')}`);
      else if (!this.catalog.regions[plat as Platform].includes(reg))
        problems.add(
          'region',
          `${reg} is not a region of ${plat}: ${this.catalog.regions[plat as Platform].join(', ')}`,
        );
      else [platform, region] = [plat as Platform, reg];
      for (const field of ['endpoint', 'path', 'method', 'error_rate', 'latency_ms', 'latency_max_ms'] as const)
        if (body[field] !== undefined) problems.add(field, 'a region outage takes no other target or effect');
    } else {
      if ((body.endpoint === undefined) === (body.path === undefined))
        problems.add('endpoint', 'give exactly one of endpoint (an operationId) and path (a route pattern)');
      else if (body.endpoint !== undefined && !ruleEndpoints.has(body.endpoint))
        problems.add('endpoint', `no endpoint "${body.endpoint}"; use an operationId of GET /openapi.json`);
      if (body.method !== undefined && body.path === undefined) problems.add('method', 'goes with path');
      if (failing === slow) problems.add('error_rate', 'give exactly one of error_rate, latency_ms and region');
    }
    if (!failing)
      for (const field of ['status', 'error_type', 'message'] as const)
        if (body[field] !== undefined) problems.add(field, 'goes with error_rate');
    if (slow && body.latency_ms === undefined) problems.add('latency_ms', 'is required with latency_max_ms');
    if (body.latency_max_ms !== undefined && body.latency_ms !== undefined && body.latency_max_ms < body.latency_ms)
      problems.add('latency_max_ms', 'must not be less than latency_ms');
    let expiresAt = NaN;
    const cap = `at most ${MAX_CHAOS_TTL_SECONDS / 3600} hours ahead`;
    if ((body.ttl_seconds === undefined) === (body.expires_at === undefined))
      problems.add('ttl_seconds', 'give exactly one of ttl_seconds and expires_at: every rule ends by itself');
    else if (body.ttl_seconds !== undefined) expiresAt = now + body.ttl_seconds * 1000;
    else {
      expiresAt = Date.parse(body.expires_at!);
      if (Number.isNaN(expiresAt)) problems.add('expires_at', 'must be an RFC 3339 time');
      else if (expiresAt <= now) problems.add('expires_at', `must be after the current time ${iso(now)}`);
      else if (expiresAt > now + MAX_CHAOS_TTL_SECONDS * 1000) problems.add('expires_at', `must be ${cap}`);
    }
    problems.throwIfAny();
    return {
      id: newId(),
      org_id: p.orgId,
      endpoint: body.endpoint ?? null,
      method: body.method ?? null,
      path: body.path ?? null,
      platform,
      region,
      error_rate_ppm: failing ? Math.round(body.error_rate! * 1e6) : null,
      status: failing ? (body.status ?? DEFAULT_STATUS) : null,
      error_type: body.error_type ?? null,
      message: body.message ?? null,
      latency_min_ms: slow ? body.latency_ms! : null,
      latency_max_ms: slow ? (body.latency_max_ms ?? body.latency_ms!) : null,
      created_at: now,
      expires_at: expiresAt,
    };
  }
}
