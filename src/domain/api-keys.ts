import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from './ids.js';
import type { Executor, Store } from '../store/store.js';
import * as keysRepo from '../store/repositories/api-keys.js';
import type { ApiKey } from '../store/repositories/api-keys.js';
import { findWorkgroup } from '../store/repositories/workgroups.js';
import { isUniqueViolation } from '../store/store.js';
import type { Clock } from './clock.js';
import type { ApiKeyRecord, CreateApiKeyBody } from '../schemas/api-key.js';
import { AppError, Problems, conflict, notFound } from './errors.js';
import { authorize } from './permissions.js';
import type { Principal, Role } from './principal.js';
import { iso, isoOrUndefined } from './time.js';

/** Readable prefix so secret scanners can recognise leaked keys. */
export const KEY_PREFIX = 'acacia_sk_';

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(plaintext: string): string {
  // The one-shot form: a Hash object per request costs more than the digest itself.
  return hash('sha256', plaintext, 'hex');
}

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

export function redact(plaintext: string): string {
  const body = plaintext.startsWith(KEY_PREFIX) ? plaintext.slice(KEY_PREFIX.length) : plaintext;
  return `${plaintext.startsWith(KEY_PREFIX) ? KEY_PREFIX : ''}${body.slice(0, 4)}…${body.slice(-4)}`;
}

/** A key as authentication last found it in the store. */
interface KnownKey {
  storeToken: number | undefined;
  principal: Principal;
  revoked: boolean;
  expiresAt: number | null;
}

const unauthenticated = (reason: string) => new AppError('unauthenticated', { field: 'x-api-key', reason });

/** How many keys authentication remembers; the least recently used is dropped first. */
const RECENT_KEYS = 10_000;

function toPrincipal(key: keysRepo.ApiKeyWithOrg): Principal {
  return {
    orgId: key.org_id,
    orgName: key.org_name,
    tier: key.org_tier as Principal['tier'],
    keyId: key.id,
    keyName: key.key_name,
    role: key.role as Role,
    workgroupIds: key.workgroup_ids,
    workspaceIds: key.workspace_ids,
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
}

/** A key as the API's create body describes it, for an organisation and a creator. */
export function newKeyFrom(body: CreateApiKeyBody, orgId: string, createdBy: string): NewKey {
  return {
    orgId,
    keyName: body.key_name,
    role: body.role,
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
    redacted_key: key.redacted_key,
    ...(key.created_by != null ? { created_by: key.created_by } : {}),
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
  ) {}

  /** Creates a key without a caller (bootstrap and the CLI); checks only its own consistency. */
  async issue(input: NewKey, db: Executor = this.store.db): Promise<ApiKeyRecord> {
    const problems = new Problems();
    checkScope(input, problems);
    problems.throwIfAny();

    const plaintext = input.plaintext ?? generateKey();
    const now = this.clock.now();
    const key: ApiKey = {
      id: newId(),
      org_id: input.orgId,
      key_name: input.keyName,
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
    };
    try {
      await keysRepo.insertApiKey(db, key);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('key_name', `an active API key named "${input.keyName}" already exists`);
      throw err;
    }
    return toApiKeyRecord(key, plaintext);
  }

  async create(p: Principal, body: CreateApiKeyBody): Promise<ApiKeyRecord> {
    authorize(p, 'org:admin');
    const problems = new Problems();
    checkScope({ role: body.role, workgroupIds: body.workgroup_ids, workspaceIds: body.workspace_ids }, problems);
    for (const [i, id] of (body.role === 'workgroup-admin' ? (body.workgroup_ids ?? []) : []).entries()) {
      if (!(await findWorkgroup(this.store.db, p.orgId, id))) problems.add(`workgroup_ids[${i}]`, `no workgroup "${id}" in this organisation`);
    }
    problems.throwIfAny();
    return this.issue(newKeyFrom(body, p.orgId, p.keyName));
  }

  async list(p: Principal): Promise<ApiKeyRecord[]> {
    authorize(p, 'org:admin');
    return this.listForOrg(p.orgId);
  }

  async listForOrg(orgId: string): Promise<ApiKeyRecord[]> {
    return (await keysRepo.listActiveApiKeys(this.store.db, orgId)).map((k) => toApiKeyRecord(k));
  }

  async revoke(p: Principal, keyName: string): Promise<ApiKeyRecord> {
    authorize(p, 'org:admin');
    return this.revokeForOrg(p.orgId, keyName);
  }

  async revokeForOrg(orgId: string, keyName: string): Promise<ApiKeyRecord> {
    const key = await keysRepo.findActiveApiKeyByName(this.store.db, orgId, keyName);
    if (!key) throw notFound('key_name', `no active API key named "${keyName}"`);
    await keysRepo.revokeApiKey(this.store.db, key.id, this.clock.now());
    return toApiKeyRecord(key);
  }

  /** Keys authentication found lately, by the header's text (hashing costs more than the lookup); only keys that exist, so unknown keys cannot fill it. */
  private readonly recent = new Map<string, KnownKey>();

  /**
   * Resolves an x-api-key header to its principal, or throws Unauthorized saying why.
   * `storeToken` (Store.changeToken, read at the request's start) lets a key found before be
   * reused without a query while nothing in the store has changed; revocation and expiry are
   * judged anew. Answers at once (no promise) for such a key, the common case.
   */
  authenticate(header: string | undefined, storeToken?: number): Principal | Promise<Principal> {
    if (!header) throw unauthenticated('the x-api-key header is required');
    const known = storeToken === undefined ? undefined : this.recent.get(header);
    return known && known.storeToken === storeToken ? this.admit(known) : this.lookUp(header, storeToken);
  }

  private async lookUp(header: string, storeToken: number | undefined): Promise<Principal> {
    const hash = hashKey(header);
    const key = await keysRepo.findApiKeyByHash(this.store.db, hash);
    if (!key || !sameHash(key.key_hash, hash)) throw unauthenticated('the API key is not valid');
    const known: KnownKey = { storeToken, principal: toPrincipal(key), revoked: key.revoked_at !== null, expiresAt: key.expires_at };
    if (storeToken !== undefined) this.remember(header, known);
    return this.admit(known);
  }

  private admit(known: KnownKey): Principal {
    if (known.revoked) throw unauthenticated('the API key has been revoked');
    if (known.expiresAt !== null && known.expiresAt <= this.clock.now()) throw unauthenticated('the API key has expired');
    return known.principal;
  }

  private remember(header: string, known: KnownKey): void {
    this.recent.delete(header);
    if (this.recent.size >= RECENT_KEYS) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(header, known);
  }
}
