import { hash, randomBytes } from 'node:crypto';
import { newId } from './ids.js';
import type { Executor, Store, Tx } from '../store/store.js';
import * as keysRepo from '../store/repositories/api-keys.js';
import type { ApiKey } from '../store/repositories/api-keys.js';
import type { KeyForAuthentication } from '../store/key-cache.js';
import { findWorkgroup } from '../store/repositories/workgroups.js';
import { findWorkspace } from '../store/repositories/workspaces.js';
import { isUniqueViolation } from '../store/store.js';
import { lockRow } from '../store/repositories/row-locks.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import type { ApiKeyRecord, CreateApiKeyBody, Role } from '../schemas/api-key.js';
import { AppError, Problems, conflict, notFound } from './errors.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount } from './quotas.js';
import { acceptName } from './names.js';
import { iso, isoOrUndefined } from './time.js';
import { findOwner, findUserById } from '../store/repositories/users.js';
import type { Grant } from '../schemas/user.js';

/** Readable prefix so secret scanners can recognise leaked keys. */
export const KEY_PREFIX = 'acacia_sk_';

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(plaintext: string): string {
  // The one-shot form: a Hash object per request costs more than the digest itself.
  return hash('sha256', plaintext, 'hex');
}

export function redact(plaintext: string): string {
  const body = plaintext.startsWith(KEY_PREFIX) ? plaintext.slice(KEY_PREFIX.length) : plaintext;
  return `${plaintext.startsWith(KEY_PREFIX) ? KEY_PREFIX : ''}${body.slice(0, 4)}…${body.slice(-4)}`;
}

const unauthenticated = (reason: string) => new AppError('unauthenticated', { field: 'x-api-key', reason });

function toPrincipal(key: KeyForAuthentication): Principal {
  return {
    orgId: key.org_id,
    orgName: key.org_name,
    tier: key.org_tier as Principal['tier'],
    keyId: key.id,
    keyName: key.key_name,
    role: key.role as Role,
    workgroupIds: key.workgroup_ids,
    workspaceIds: key.workspace_ids,
    ...(key.user_id !== null ? { userId: key.user_id } : {}),
    grants: key.user_roles as Grant[],
    platformAdmin: key.platform_admin === 1,
  };
}

export interface NewKey {
  orgId: string;
  keyName: string;
  role: Role;
  description?: string | undefined;
  workgroupIds?: string[] | undefined;
  workspaceIds?: string[] | undefined;
  lifetimeSeconds?: number | undefined;
  createdBy?: string | undefined;
  plaintext?: string | undefined;
  /** The user the key acts for; the organisation's owner when not given. */
  userId?: string | undefined;
}

/**
 * A key as the API's create body describes it, for an organisation and a creator. The real
 * service's create request carries neither name nor role: the name defaults to
 * `key-<8 random characters>` and the role to `defaultRole` (the creator's).
 */
export function newKeyFrom(body: CreateApiKeyBody, orgId: string, createdBy: string, defaultRole: Role): NewKey {
  return {
    orgId,
    keyName: body.key_name ?? `key-${randomBytes(6).toString('base64url')}`,
    role: body.role ?? defaultRole,
    description: body.description,
    workgroupIds: body.workgroup_ids,
    workspaceIds: body.workspace_ids,
    lifetimeSeconds: body.life_time_in_seconds,
    createdBy,
  };
}

export function toApiKeyRecord(key: ApiKey, plaintext?: string): ApiKeyRecord {
  return {
    key_name: key.key_name,
    ...(key.description != null ? { description: key.description } : {}),
    role: key.role as Role,
    workgroup_ids: key.workgroup_ids,
    workspace_ids: key.workspace_ids,
    org_id: key.org_id,
    redacted_key: key.redacted_key,
    ...(key.created_by != null ? { created_by: key.created_by, creator: key.created_by } : {}),
    ...(key.user_id != null ? { user_id: key.user_id } : {}),
    created_at: iso(key.created_at),
    ...(key.expires_at != null ? { expires_at: isoOrUndefined(key.expires_at)! } : {}),
    ...(plaintext ? { plaintext_key: plaintext } : {}),
  };
}

/** Scoped roles need their list of ids; other roles take none. */
function checkScope(input: Pick<NewKey, 'role' | 'workgroupIds' | 'workspaceIds'>, problems: Problems): void {
  const scoped = [
    ['workgroup-admin', 'workgroup_ids', input.workgroupIds],
    ['workspace-admin', 'workspace_ids', input.workspaceIds],
  ] as const;
  for (const [role, field, ids] of scoped) {
    if (input.role === role && !ids?.length) problems.add(field, `is required for role ${role}`);
    if (input.role !== role && ids?.length) problems.add(field, `applies only to role ${role}`);
  }
}

export class ApiKeyService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
  ) {}

  /**
   * Creates a key without a caller (bootstrap and the CLI); checks its own consistency and the
   * organisation's count of keys. `tx` is the unit of work the caller runs in, else one is opened.
   */
  async issue(input: NewKey, tx?: Tx): Promise<ApiKeyRecord> {
    const problems = new Problems();
    const keyName = acceptName(problems, 'key_name', input.keyName);
    checkScope(input, problems);
    problems.throwIfAny();

    const plaintext = input.plaintext ?? generateKey();
    const now = this.clock.now();
    const key: ApiKey = {
      id: newId(),
      org_id: input.orgId,
      key_name: keyName,
      description: input.description ?? null,
      role: input.role,
      workgroup_ids: input.workgroupIds ?? [],
      workspace_ids: input.workspaceIds ?? [],
      key_hash: hashKey(plaintext),
      redacted_key: redact(plaintext),
      created_by: input.createdBy ?? null,
      created_at: now,
      expires_at: input.lifetimeSeconds ? now + input.lifetimeSeconds * 1000 : null,
      revoked_at: null,
      user_id: null,
    };
    const limit = this.catalog.limits.api_keys_per_organisation;
    const insert = async (db: Executor) => {
      await lockRow(db, 'organisations', input.orgId);
      key.user_id = input.userId ?? (await findOwner(db, input.orgId))?.id ?? null;
      if (key.user_id === null) throw new Error(`issue: organisation ${input.orgId} has no owner user`);
      checkCount('key_name', await keysRepo.countActiveApiKeys(db, input.orgId), limit, 'API keys per organisation');
      await keysRepo.insertApiKey(db, key);
    };
    try {
      await (tx ? insert(tx.db) : this.store.transaction((trx) => insert(trx.db)));
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('key_name', `an active API key named "${keyName}" already exists`);
      throw err;
    }
    return toApiKeyRecord(key, plaintext);
  }

  async create(p: Principal, body: CreateApiKeyBody, tx?: Tx): Promise<ApiKeyRecord> {
    authorize(p, 'org:admin');
    const problems = new Problems();
    const key = { ...newKeyFrom(body, p.orgId, p.keyName, p.role), userId: p.userId };
    checkScope(key, problems);
    problems.throwIfAny();
    const missing = new Problems();
    await this.checkScopeIds(key, missing, tx);
    missing.throwIfAny('not-found');
    return this.issue(key, tx);
  }

  /**
   * A scoped key names workgroups or workspaces of its own organisation: an id of another
   * organisation's, or of none, names no resource, so it is a 404, as any body field naming
   * none is; each is named by its place in the list, all at once.
   */
  private async checkScopeIds(key: NewKey, problems: Problems, tx: Tx | undefined): Promise<void> {
    const lists = [
      ['workgroup-admin', 'workgroup_ids', 'workgroup', key.workgroupIds, findWorkgroup],
      ['workspace-admin', 'workspace_ids', 'workspace', key.workspaceIds, findWorkspace],
    ] as const;
    // A list beside another role is refused as such by checkScope.
    for (const [role, field, kind, ids, find] of lists)
      for (const [i, id] of (key.role === role ? (ids ?? []) : []).entries())
        if (!(await find(this.store.reader(tx), key.orgId, id)))
          problems.add(`${field}[${i}]`, `no ${kind} "${id}" in this organisation`);
  }

  async list(p: Principal): Promise<ApiKeyRecord[]> {
    authorize(p, 'org:admin');
    return this.listForOrg(p.orgId);
  }

  async listForOrg(orgId: string): Promise<ApiKeyRecord[]> {
    return (await keysRepo.listActiveApiKeys(this.store.db, orgId)).map((k) => toApiKeyRecord(k));
  }

  /** The caller's own key, whatever its role: what it may do and until when. */
  async current(p: Principal): Promise<ApiKeyRecord> {
    const key = await keysRepo.findApiKeyById(this.store.db, p.orgId, p.keyId);
    // Authentication found this key a moment ago; a revocation since then is the same 401.
    if (!key || key.revoked_at !== null) throw unauthenticated('the API key has been revoked');
    // The user's grants too: what the key may do is what both allow (a console offers by it).
    return { ...toApiKeyRecord(key), user_grants: [...p.grants] };
  }

  async revoke(p: Principal, keyName: string): Promise<ApiKeyRecord> {
    authorize(p, 'org:admin');
    return this.revokeForOrg(p.orgId, keyName);
  }

  async revokeForOrg(orgId: string, keyName: string): Promise<ApiKeyRecord> {
    const key = await keysRepo.findActiveApiKeyByName(this.store.db, orgId, keyName.normalize('NFC'));
    if (!key) throw notFound('key_name', `no active API key named "${keyName}"`);
    // Answered once no process keeps the key (those that do drop it on the change's announcement).
    await keysRepo.changeKey(this.store, key.id, () => keysRepo.revokeApiKey(this.store.db, key.id, this.clock.now()));
    return toApiKeyRecord(key);
  }

  /**
   * Resolves an x-api-key header to its principal, or throws Unauthorized saying why. The key
   * is as committed now, so a revocation or an expiry made by any process applies to the very
   * next request: read on every request from SQLite (synchronously, without a promise), kept
   * on PostgreSQL only while every change to keys is heard (src/store/key-cache.ts). Expiry
   * is judged here, on every request.
   */
  authenticate(header: string | undefined): Principal | Promise<Principal> {
    if (!header) throw unauthenticated('the x-api-key header is required');
    const hash = hashKey(header);
    const key = keysRepo.findKeyByHash(this.store, hash);
    return key instanceof Promise ? key.then((k) => this.admit(k)) : this.admit(key);
  }

  /**
   * Whether the caller's key still admits it, as committed now: for what outlives the request
   * it was authenticated for (an event stream). `refusal` is the Reason a request with the key
   * would now be refused with; `expiresAt` when it stops admitting by itself.
   */
  async standing(p: Principal): Promise<{ refusal?: string; expiresAt: number | null }> {
    const key = await keysRepo.findApiKeyById(this.store.db, p.orgId, p.keyId);
    const user = key?.user_id != null ? await findUserById(this.store.db, key.user_id) : undefined;
    const refusal = this.refusal(key && { ...key, user_enabled: user?.enabled ?? null });
    return { ...(refusal !== undefined ? { refusal } : {}), expiresAt: key?.expires_at ?? null };
  }

  private admit(key: KeyForAuthentication | undefined): Principal {
    const refusal = this.refusal(key);
    if (refusal !== undefined) throw unauthenticated(refusal);
    return toPrincipal(key!);
  }

  /** Why a key does not admit its caller now, or undefined when it does. */
  private refusal(
    key: (Pick<ApiKey, 'revoked_at' | 'expires_at'> & { user_enabled: number | null }) | undefined,
  ): string | undefined {
    if (!key) return 'the API key is not valid';
    if (key.revoked_at !== null) return 'the API key has been revoked';
    if (key.expires_at !== null && key.expires_at <= this.clock.now()) return 'the API key has expired';
    // A key acts for its user: none (a row gone) or a disabled one admits nobody.
    if (key.user_enabled === null) return "the API key's user no longer exists";
    if (key.user_enabled !== 1) return "the API key's user is disabled";
    return undefined;
  }
}
