import { createHmac, randomBytes } from 'node:crypto';
import type { ChaosService } from './chaos.js';
import type { Store } from '../store/store.js';
import {
  allowListToAdmit,
  dbUserToAdmit,
  placedWorkspaceToAdmit,
  type WorkspaceToAdmit,
} from '../store/repositories/admission.js';
import type { DbUser } from '../store/repositories/db-users.js';
import { recordActivity } from '../store/repositories/workspaces.js';
import type { Clock } from './clock.js';
import { checkAddress } from './allow-list-rules.js';
import { passwordStamp, type DbIdentity } from './db-credentials.js';
import type { DbSecretService } from './db-secrets.js';
import type { DbTokenService, TokenProblem } from './db-tokens.js';
import { clientOf, displayAddress } from '../addresses/cidr.js';
import { AppError, type ErrorCode } from './errors.js';
import { LoginThrottle, type Attempt } from './login-throttle.js';
import { decoyHash, verifyPassword } from './passwords.js';
import { Semaphore, SemaphoreFull } from './semaphore.js';
import type { WorkspaceService } from './workspaces.js';

/** Activity is written at most this often per workspace: auto-stop works in minutes. */
export const ACTIVITY_INTERVAL_MS = 5_000;
/** Workspaces whose last write of activity is remembered. */
const ACTIVITY_MEMORY = 10_000;
/** How many verified credentials are remembered; past it the memory starts again. */
const VERIFIED_MEMORY = 10_000;
/** What a caller is told to wait while a workspace starts or changes. */
export const RETRY_AFTER_SECONDS = 30;
/**
 * Password checks (scrypt, tens of milliseconds and 16 MiB each on a thread-pool thread)
 * running at once, and waiting: the rest of the thread pool stays free for the API.
 */
const SCRYPT_AT_ONCE = 2;
const SCRYPT_WAITING = 64;

/** A refused data-plane request: the code decides the status; `info` adds fields to the body. */
export class GatewayRefusal extends AppError {
  constructor(
    code: ErrorCode,
    reason: string,
    readonly info: Record<string, string> = {},
    readonly retryAfterSeconds?: number,
  ) {
    super(code, { field: '', reason }, reason);
  }
}

/** What a data-plane request offers as proof of who it is. */
export type Credentials =
  | { kind: 'password'; username: string; password: string }
  /** A GSQL secret: `secret` in a token request, or Basic auth as the user `__GSQL__secret`. */
  | { kind: 'secret'; secret: string }
  /** `Authorization: Bearer <token>`. */
  | { kind: 'token'; token: string };

const tokenProblems: Record<TokenProblem, string> = {
  unknown:
    'the token is not known in this workspace: it was not issued here, ' +
    'or it was revoked with its secret or its database user',
  expired: 'the token has expired; request a new one',
  revoked: "the token was revoked: its database user's password changed",
};

/**
 * Admission to a workspace through the data-plane gateway (DESIGN §9): allow list, then
 * database-user authentication (password, secret or token), then the workspace's state.
 * Only an admitted request counts as activity for auto-stop.
 */
export class GatewayService {
  private readonly lastActivity = new Map<string, number>();
  /** Stored password hashes with a keyed digest of the password that matched each; memory only. */
  private readonly verified = new Set<string>();
  /** This process's own key for those digests, so they are worth nothing outside it. */
  private readonly proofKey = randomBytes(32);
  private readonly scrypt = new Semaphore(SCRYPT_AT_ONCE, SCRYPT_WAITING);
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly workspaces: WorkspaceService,
    private readonly secrets: DbSecretService,
    private readonly tokens: DbTokenService,
    private readonly chaos?: ChaosService,
  ) {
    this.throttle = new LoginThrottle(clock);
  }

  /** The workspace, when it exists and the caller's address is allowed to reach it. */
  async locate(workspaceId: string, ip: string): Promise<WorkspaceToAdmit> {
    const placed = await placedWorkspaceToAdmit(this.store, workspaceId);
    if (!placed) throw new GatewayRefusal('not-found', `no workspace "${workspaceId}"`);
    const { ws, wg } = placed;
    const now = this.clock.now();
    const outage = wg && this.chaos?.regionDown(wg.org_id, wg.platform, wg.region);
    if (outage) {
      await this.chaos!.hit(outage);
      throw new GatewayRefusal(
        'unavailable',
        `region ${wg.platform}/${wg.region} is unavailable (chaos rule ${outage.id}); retry later`,
        { status: ws.status },
        RETRY_AFTER_SECONDS,
      );
    }
    if (wg?.enable_allow_list) {
      const entries = await allowListToAdmit(this.store, wg.id, now);
      if (!checkAddress(true, entries, ip, now).allowed) {
        const shown = displayAddress(ip);
        throw new GatewayRefusal('forbidden', `address ${shown} is not in the allow list of workgroup ${wg.id}`, {
          ip: shown,
        });
      }
    }
    return ws;
  }

  /** Who the credentials prove the caller to be in this workspace; failures are throttled per client. */
  async authenticate(ws: WorkspaceToAdmit, ip: string, credentials: Credentials | undefined): Promise<DbIdentity> {
    if (!credentials)
      throw new GatewayRefusal(
        'unauthenticated',
        'credentials of a database user of this workspace are required: Basic auth with its password or a secret ' +
          '(user __GSQL__secret), Authorization: GSQL-Secret <secret>, or Authorization: Bearer <token>',
      );
    const client = clientOf(ip) ?? ip;
    switch (credentials.kind) {
      case 'password':
        return this.byPassword(ws, `${client}\n${ws.id}\n${credentials.username.toLowerCase()}`, credentials);
      case 'secret':
        // '#' cannot be in a username, so these counts never mix with a user's.
        return this.throttled(`${client}\n${ws.id}\n#secret`, 'secrets', async () => {
          const identity = await this.secrets.resolve(ws.id, ws.org_id, credentials.secret);
          if (identity) return identity;
          const masked = /^.{3}\*{4}.{3}$/.test(credentials.secret)
            ? '; a listing shows secrets masked as abc****xyz: the secret itself is shown only when it is created'
            : '';
          throw new GatewayRefusal('unauthenticated', `the secret is not one of this workspace's secrets${masked}`);
        });
      case 'token':
        return this.throttled(`${client}\n${ws.id}\n#token`, 'tokens', async () => {
          const check = await this.tokens.resolve(ws.id, ws.org_id, credentials.token);
          if ('identity' in check) return check.identity;
          throw new GatewayRefusal('unauthenticated', tokenProblems[check.problem]);
        });
    }
  }

  /** Runs a credential check under the login throttle: held back while the key waits, counted when refused. */
  private async throttled(key: string, what: string, check: () => Promise<DbIdentity>): Promise<DbIdentity> {
    const attempt = await this.admit(key, `too many failed attempts with ${what} from this address`);
    try {
      const identity = await check();
      attempt.succeeded();
      return identity;
    } catch (err) {
      if (err instanceof GatewayRefusal && err.code === 'unauthenticated') attempt.failed();
      else attempt.abandoned();
      throw err;
    }
  }

  /** The attempt, once the throttle lets it be checked; 429 with Retry-After while the key must wait. */
  private async admit(key: string, what: string): Promise<Attempt> {
    const attempt = await this.throttle.admit(key);
    if ('waitMs' in attempt) throw this.heldBack(attempt.waitMs, what);
    return attempt;
  }

  /** 429 with Retry-After while the key must wait. */
  private holdBack(key: string, what: string): void {
    const waitMs = this.throttle.waitMs(key);
    if (waitMs > 0) throw this.heldBack(waitMs, what);
  }

  private heldBack(waitMs: number, what: string): GatewayRefusal {
    const seconds = Math.ceil(waitMs / 1000);
    return new GatewayRefusal('rate-limited', `${what}; retry in ${seconds} s`, {}, seconds);
  }

  private async byPassword(
    ws: WorkspaceToAdmit,
    throttleKey: string,
    credentials: { username: string; password: string },
  ): Promise<DbIdentity> {
    // Failures are counted per client and database user (names ignore case, as lookups do).
    const refusal = `too many failed logins as "${credentials.username}" from this address`;
    this.holdBack(throttleKey, refusal);
    const user = await dbUserToAdmit(this.store, ws.id, credentials.username);
    const identity = (u: DbUser): DbIdentity => ({
      orgId: ws.org_id,
      workspaceId: ws.id,
      userId: u.id,
      username: u.username,
      passwordStamp: passwordStamp(u.password_hash),
      via: 'password',
    });
    // scrypt costs tens of milliseconds of a thread-pool thread: a password that matched this
    // very stored hash before is not hashed again. A new password has a new hash (and salt).
    const proof =
      user &&
      `${user.password_hash} ${createHmac('sha256', this.proofKey).update(credentials.password).digest('base64')}`;
    if (proof && this.verified.has(proof)) {
      this.throttle.succeeded(throttleKey);
      return identity(user);
    }
    // A password not seen to match is a guess until checked: it goes through the throttle,
    // which holds it back while earlier guesses of this key are still being checked.
    const attempt = await this.admit(throttleKey, refusal);
    // One of those may have been this very password: then it need not be hashed again.
    if (proof && this.verified.has(proof)) {
      attempt.succeeded();
      return identity(user);
    }
    let valid: boolean;
    try {
      // An unknown user costs the same hash as a known one, so timing does not reveal names.
      valid = await this.verify(credentials.password, user?.password_hash ?? decoyHash);
    } catch (err) {
      attempt.abandoned();
      throw err;
    }
    if (!user || !valid) {
      attempt.failed();
      throw new GatewayRefusal('unauthenticated', 'unknown database user or wrong password');
    }
    attempt.succeeded();
    if (this.verified.size >= VERIFIED_MEMORY) this.verified.clear();
    this.verified.add(proof!);
    return identity(user);
  }

  /** verifyPassword, a few at a time; past the queue the caller is told to come back. */
  private async verify(password: string, hash: string): Promise<boolean> {
    try {
      return await this.scrypt.run(() => verifyPassword(password, hash));
    } catch (err) {
      if (!(err instanceof SemaphoreFull)) throw err;
      throw new GatewayRefusal('unavailable', 'too many logins are being checked; retry shortly', {}, 1);
    }
  }

  /** Serves an Active workspace; starts an Idle one; otherwise says what state it is in. */
  async ready<W extends WorkspaceToAdmit>(ws: W): Promise<W> {
    const now = this.clock.now();
    const status = { status: ws.status };
    switch (ws.status) {
      case 'Active':
        await this.recordActivity(ws.id, now);
        return ws;
      case 'Idle':
        await this.workspaces.autoResume(ws.id);
        throw new GatewayRefusal(
          'unavailable',
          'the workspace was Idle and is starting; retry shortly',
          { status: 'Resuming' },
          RETRY_AFTER_SECONDS,
        );
      case 'Stopped':
        throw new GatewayRefusal('unavailable', 'the workspace is Stopped; start it with resume', status);
      case 'Failed':
        throw new GatewayRefusal(
          'unavailable',
          `the workspace is Failed (${ws.err_message ?? 'no detail'}); retry it with resume`,
          status,
        );
      case 'Deleting':
        throw new GatewayRefusal('unavailable', 'the workspace is being deleted', status);
      default:
        throw new GatewayRefusal(
          'unavailable',
          `the workspace is ${ws.status}; retry when it is Active`,
          status,
          RETRY_AFTER_SECONDS,
        );
    }
  }

  private async recordActivity(workspaceId: string, now: number): Promise<void> {
    const last = this.lastActivity.get(workspaceId);
    if (last !== undefined && now >= last && now - last < ACTIVITY_INTERVAL_MS) return;
    // Bounded: past the cap the memory is dropped, costing at most one extra write per workspace.
    if (this.lastActivity.size >= ACTIVITY_MEMORY) this.lastActivity.clear();
    this.lastActivity.set(workspaceId, now);
    await recordActivity(this.store.db, workspaceId, now);
  }
}
