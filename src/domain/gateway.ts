import { createHmac, randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import { listEntriesOfWorkgroups } from '../store/repositories/allow-list.js';
import { findDbUser } from '../store/repositories/db-users.js';
import { findWorkgroupById } from '../store/repositories/workgroups.js';
import { findWorkspaceById, recordActivity, type Workspace } from '../store/repositories/workspaces.js';
import type { Clock } from './clock.js';
import { checkAddress } from './allow-list-rules.js';
import { displayAddress } from './cidr.js';
import { AppError, type ErrorCode } from './errors.js';
import { decoyHash, verifyPassword } from './passwords.js';
import type { WorkspaceService } from './workspaces.js';

/** Activity is written at most this often per workspace: auto-stop works in minutes. */
export const ACTIVITY_INTERVAL_MS = 5_000;
/** Workspaces whose last write of activity is remembered. */
const ACTIVITY_MEMORY = 10_000;
/** How many verified credentials are remembered; past it the memory starts again. */
const VERIFIED_MEMORY = 10_000;
/** What a caller is told to wait while a workspace starts or changes. */
export const RETRY_AFTER_SECONDS = 30;

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

export interface Credentials {
  username: string;
  password: string;
}

/**
 * Admission to a workspace through the data-plane gateway (DESIGN §9): allow list, then
 * database-user authentication, then the workspace's state. Only an admitted request
 * counts as activity for auto-stop.
 */
export class GatewayService {
  private readonly lastActivity = new Map<string, number>();
  /** Stored password hashes with a keyed digest of the password that matched each; memory only. */
  private readonly verified = new Set<string>();
  /** This process's own key for those digests, so they are worth nothing outside it. */
  private readonly proofKey = randomBytes(32);

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly workspaces: WorkspaceService,
  ) {}

  /** The workspace to serve, or a GatewayRefusal. */
  async admit(workspaceId: string, ip: string, credentials: Credentials | undefined): Promise<Workspace> {
    const db = this.store.db;
    const ws = await findWorkspaceById(db, workspaceId);
    if (!ws) throw new GatewayRefusal('not-found', `no workspace "${workspaceId}"`);
    const wg = await findWorkgroupById(db, ws.workgroup_id);
    const now = this.clock.now();
    if (wg?.enable_allow_list) {
      const entries = await listEntriesOfWorkgroups(db, [wg.id], now);
      if (!checkAddress(true, entries, ip, now).allowed) {
        const shown = displayAddress(ip);
        throw new GatewayRefusal('forbidden', `address ${shown} is not in the allow list of workgroup ${wg.id}`, { ip: shown });
      }
    }
    await this.authenticate(ws, credentials);
    return this.ready(ws, now);
  }

  private async authenticate(ws: Workspace, credentials: Credentials | undefined): Promise<void> {
    if (!credentials) throw new GatewayRefusal('unauthenticated', 'Basic credentials of a database user of this workspace are required');
    const user = await findDbUser(this.store.db, ws.id, credentials.username);
    // scrypt costs tens of milliseconds of a thread-pool thread: a password that matched this
    // very stored hash before is not hashed again. A new password has a new hash (and salt).
    const proof = user && `${user.password_hash} ${createHmac('sha256', this.proofKey).update(credentials.password).digest('base64')}`;
    if (proof && this.verified.has(proof)) return;
    // An unknown user costs the same hash as a known one, so timing does not reveal names.
    const valid = await verifyPassword(credentials.password, user?.password_hash ?? decoyHash);
    if (!user || !valid) throw new GatewayRefusal('unauthenticated', 'unknown database user or wrong password');
    if (this.verified.size >= VERIFIED_MEMORY) this.verified.clear();
    this.verified.add(proof!);
  }

  /** Serves an Active workspace; starts an Idle one; otherwise says what state it is in. */
  private async ready(ws: Workspace, now: number): Promise<Workspace> {
    const status = { status: ws.status };
    switch (ws.status) {
      case 'Active':
        await this.recordActivity(ws.id, now);
        return ws;
      case 'Idle':
        await this.workspaces.autoResume(ws.id);
        throw new GatewayRefusal('unavailable', 'the workspace was Idle and is starting; retry shortly', { status: 'Resuming' }, RETRY_AFTER_SECONDS);
      case 'Stopped':
        throw new GatewayRefusal('unavailable', 'the workspace is Stopped; start it with resume', status);
      case 'Failed':
        throw new GatewayRefusal('unavailable', `the workspace is Failed (${ws.err_message ?? 'no detail'}); retry it with resume`, status);
      case 'Deleting':
        throw new GatewayRefusal('unavailable', 'the workspace is being deleted', status);
      default:
        throw new GatewayRefusal('unavailable', `the workspace is ${ws.status}; retry when it is Active`, status, RETRY_AFTER_SECONDS);
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
