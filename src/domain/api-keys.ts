import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from './ids.js';
import type { Executor, Store } from '../store/store.js';
import * as keysRepo from '../store/repositories/api-keys.js';
import type { ApiKey } from '../store/repositories/api-keys.js';
import { findWorkgroup } from '../store/repositories/workgroups.js';
import { isUniqueViolation } from '../store/store.js';
import type { Clock } from '../engine/clock.js';
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
  return createHash('sha256').update(plaintext).digest('hex');
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

  /** Resolves an x-api-key header to its principal, or throws Unauthorized saying why. */
  async authenticate(header: string | undefined): Promise<Principal> {
    const fail = (reason: string) => new AppError('unauthenticated', { field: 'x-api-key', reason });
    if (!header) throw fail('the x-api-key header is required');
    const hash = hashKey(header);
    const key = await keysRepo.findApiKeyByHash(this.store.db, hash);
    if (!key || !sameHash(key.key_hash, hash)) throw fail('the API key is not valid');
    if (key.revoked_at !== null) throw fail('the API key has been revoked');
    if (key.expires_at !== null && key.expires_at <= this.clock.now()) throw fail('the API key has expired');
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
}
