import { randomBytes } from 'node:crypto';
import { newId } from './ids.js';
import type { Executor, Store } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as usersRepo from '../store/repositories/users.js';
import type { UserRow } from '../store/repositories/users.js';
import { changeKey } from '../store/repositories/api-keys.js';
import { findWorkgroup } from '../store/repositories/workgroups.js';
import { findWorkspace } from '../store/repositories/workspaces.js';
import { lockRow } from '../store/repositories/row-locks.js';
import { toPage, type Page, type PageResult } from '../store/pagination.js';
import type { Clock } from './clock.js';
import { Problems, conflict, notFound } from './errors.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { resumeAfter } from './paging.js';
import { checkCount } from './quotas.js';
import { hashKey, newKeyFrom, type ApiKeyService } from './api-keys.js';
import { iso } from './time.js';
import type { ApiKeyRecord } from '../schemas/api-key.js';
import {
  roleDisplayNames,
  roleScope,
  userRoles,
  type AcceptInvitationBody,
  type Grant,
  type InviteUserBody,
  type OrgRole,
  type OrgUser,
  type UpdateUserBody,
  type UserInvitation,
  type UserRole,
} from '../schemas/user.js';

/** Users one organisation may hold, invited ones included: what bounds every scan of them. */
export const USERS_PER_ORGANISATION = 1000;
/** How long an invitation token is good for. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
/** Readable prefix, as API keys have, so a leaked token is recognised. */
const INVITE_PREFIX = 'acacia_inv_';
const DEFAULT_PAGE = 100;

const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const grantsOf = (row: UserRow): Grant[] => JSON.parse(row.roles) as Grant[];

/** A grant as the API spells it: `org-admin`, `workspace-admin:<id>`. */
export const grantText = (g: Grant): string => (g.resource_id === null ? g.role : `${g.role}:${g.resource_id}`);

function toOrgRole(g: Grant, orgId: string): OrgRole {
  const scope = roleScope[g.role];
  return {
    id: grantText(g),
    name: g.role,
    displayName: roleDisplayNames[g.role],
    path: scope ? `/${scope}s/${g.resource_id}` : '/',
    tenantID: orgId,
  };
}

export function toOrgUser(row: UserRow): OrgUser {
  return {
    id: row.id,
    ...(row.email !== null ? { email: row.email } : {}),
    username: row.is_owner === 1 && row.email === null ? 'owner' : (row.email ?? '').split('@')[0]!,
    firstName: row.first_name,
    lastName: row.last_name,
    enabled: row.enabled === 1,
    status: row.invited_at !== null && row.accepted_at === null ? 'invited' : 'active',
    roles: grantsOf(row).map((g) => toOrgRole(g, row.org_id)),
    tenantID: row.org_id,
    platform_admin: row.platform_admin === 1,
    created: iso(row.created_at),
    updated: iso(row.updated_at),
    ...(row.invited_at !== null ? { invited_at: iso(row.invited_at) } : {}),
    ...(row.accepted_at !== null ? { accepted_at: iso(row.accepted_at) } : {}),
  };
}

function checkPersonName(problems: Problems, field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = value.normalize('NFC').trim();
  if (CONTROL.test(name)) problems.add(field, 'must not contain control or formatting characters');
  return name;
}

/** Whether the grants keep an enabled org admin among the organisation's users, once `user` is changed. */
const isAdmin = (grants: Grant[]) => grants.some((g) => g.role === 'org-admin');

export interface NewUser {
  email: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  roles?: string[] | undefined;
  platformAdmin?: boolean | undefined;
}

export class UserService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeyService,
  ) {}

  /** A page of the organisation's users, in creation order. For org admins. */
  async list(p: Principal, page: Page): Promise<PageResult<OrgUser>> {
    authorize(p, 'org:admin');
    const limit = page.limit ?? DEFAULT_PAGE;
    const rows = await usersRepo.listUsers(this.store.db, p.orgId, limit, resumeAfter(page));
    const { items, nextCursor } = toPage(rows, limit);
    return { items: items.map(toOrgUser), ...(nextCursor ? { nextCursor } : {}) };
  }

  /**
   * Invites a user by email with the grants given (none: a member who may read). The token is
   * returned this once and kept only as its hash; accepting it gives the user a first key.
   */
  async invite(p: Principal, body: InviteUserBody): Promise<UserInvitation> {
    authorize(p, 'org:admin');
    const token = INVITE_PREFIX + randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const row = await this.insert(p.orgId, body, {
      invite_hash: hashKey(token),
      invited_at: now,
      invite_expires_at: now + INVITATION_LIFETIME_MS,
      created_by: p.userId ?? null,
    });
    return { user: toOrgUser(row), invite_token: token, invite_expires_at: iso(row.invite_expires_at!) };
  }

  /**
   * Accepts an invitation: the token is spent, and the user gets its first API key (role
   * org-admin: the key does whatever the user's grants allow, and no more).
   */
  async accept(body: AcceptInvitationBody): Promise<ApiKeyRecord> {
    const problems = new Problems();
    const firstName = checkPersonName(problems, 'firstName', body.firstName);
    const lastName = checkPersonName(problems, 'lastName', body.lastName);
    problems.throwIfAny();
    const inviteHash = hashKey(body.token);
    return this.store.transaction(async (trx) => {
      const user = await usersRepo.findUserByInvite(trx.db, inviteHash);
      if (!user) throw notFound('token', 'no pending invitation has this token');
      const now = this.clock.now();
      if (user.invite_expires_at !== null && user.invite_expires_at <= now)
        throw conflict('token', `the invitation expired at ${iso(user.invite_expires_at)}: ask for a new one`);
      // Spent by the first to claim it: a second accept finds no row.
      const claimed = await usersRepo.claimInvitation(trx.db, user.id, inviteHash, {
        accepted_at: now,
        updated_at: now,
        ...(firstName !== undefined ? { first_name: firstName } : {}),
        ...(lastName !== undefined ? { last_name: lastName } : {}),
      });
      if (!claimed) throw notFound('token', 'no pending invitation has this token');
      const key = newKeyFrom({}, user.org_id, 'invitation', 'org-admin');
      return this.apiKeys.issue({ ...key, userId: user.id, description: 'first key, from the invitation' }, trx);
    });
  }

  /** Creates a user directly, without an invitation (`acacia admin users add`), and its first key. */
  async create(orgId: string, input: NewUser): Promise<{ user: OrgUser; key: ApiKeyRecord }> {
    return this.store.transaction(async (trx) => {
      const now = this.clock.now();
      const row = await this.insert(
        orgId,
        input,
        { accepted_at: now, created_by: 'cli', platform_admin: input.platformAdmin ? 1 : 0 },
        trx.db,
      );
      const key = newKeyFrom({}, orgId, 'cli', 'org-admin');
      return { user: toOrgUser(row), key: await this.apiKeys.issue({ ...key, userId: row.id }, trx) };
    });
  }

  /** Grants or takes back the platform administrator's flag (`acacia admin users platform-admin`). */
  async setPlatformAdmin(orgId: string, email: string, on: boolean): Promise<OrgUser> {
    const user = await usersRepo.findUserByEmail(this.store.db, orgId, email.trim().toLowerCase());
    if (!user) throw notFound('email', `no user "${email}" in this organisation`);
    await changeKey(this.store, user.id, () =>
      usersRepo.updateUser(this.store.db, user.id, { platform_admin: on ? 1 : 0, updated_at: this.clock.now() }),
    );
    return toOrgUser((await usersRepo.findUserById(this.store.db, user.id))!);
  }

  /**
   * Replaces the user's grants. Its keys act by them from their next request (on PostgreSQL
   * the answer waits until no process keeps the keys). An organisation keeps an enabled org admin.
   */
  async setRoles(p: Principal, userId: string, roles: string[]): Promise<OrgUser> {
    authorize(p, 'org:admin');
    const grants = await this.parseGrants(this.store.db, p.orgId, roles);
    return this.change(p, userId, 'roles', (user) => ({ roles: JSON.stringify(grants), enabled: user.enabled }));
  }

  /** Enables or disables the user, or renames it; a disabled user's keys are refused (401) from their next request. */
  async update(p: Principal, userId: string, body: UpdateUserBody): Promise<OrgUser> {
    authorize(p, 'org:admin');
    const problems = new Problems();
    const firstName = checkPersonName(problems, 'firstName', body.firstName);
    const lastName = checkPersonName(problems, 'lastName', body.lastName);
    problems.throwIfAny();
    return this.change(p, userId, 'enabled', (user) => ({
      roles: user.roles,
      enabled: body.enabled === undefined ? user.enabled : body.enabled ? 1 : 0,
      ...(firstName !== undefined ? { first_name: firstName } : {}),
      ...(lastName !== undefined ? { last_name: lastName } : {}),
    }));
  }

  /** Applies a change to a user of the caller's organisation, refusing one that leaves it without an org admin. */
  private async change(
    p: Principal,
    userId: string,
    field: string,
    changes: (user: UserRow) => Pick<UserRow, 'roles' | 'enabled'> & Partial<UserRow>,
  ): Promise<OrgUser> {
    const found = await usersRepo.findUser(this.store.db, p.orgId, userId);
    if (!found) throw notFound('userId', `no user "${userId}" in this organisation`);
    return changeKey(this.store, found.id, () =>
      this.store.transaction(async (trx) => {
        // Serialises changes of the organisation's users: two demotions cannot both pass the check.
        await lockRow(trx.db, 'organisations', p.orgId);
        const user = (await usersRepo.findUser(trx.db, p.orgId, userId))!;
        const next = changes(user);
        const wasAdmin = user.enabled === 1 && isAdmin(grantsOf(user));
        const staysAdmin = next.enabled === 1 && isAdmin(JSON.parse(next.roles) as Grant[]);
        if (wasAdmin && !staysAdmin) {
          const admins = await usersRepo.enabledUsersWithRole(trx.db, p.orgId, 'org-admin');
          if (!admins.some((a) => a.id !== user.id && isAdmin(grantsOf(a))))
            throw conflict(field, 'the organisation would have no enabled org admin left');
        }
        const row = { ...user, ...next, updated_at: this.clock.now() };
        await usersRepo.updateUser(trx.db, user.id, {
          roles: row.roles,
          enabled: row.enabled,
          first_name: row.first_name,
          last_name: row.last_name,
          updated_at: row.updated_at,
        });
        return toOrgUser(row);
      }),
    );
  }

  /** Inserts a user after checking its fields, its email's uniqueness and the organisation's count. */
  private async insert(orgId: string, input: NewUser, extra: Partial<UserRow>, db?: Executor): Promise<UserRow> {
    const problems = new Problems();
    const email = input.email.normalize('NFC').trim();
    if (!EMAIL.test(email) || email.length > 254) problems.add('email', 'must be an email address (name@domain)');
    const firstName = checkPersonName(problems, 'firstName', input.firstName);
    const lastName = checkPersonName(problems, 'lastName', input.lastName);
    problems.throwIfAny();
    const now = this.clock.now();
    const write = async (trx: Executor): Promise<UserRow> => {
      const grants = await this.parseGrants(trx, orgId, input.roles ?? []);
      await lockRow(trx, 'organisations', orgId);
      checkCount('email', await usersRepo.countUsers(trx, orgId), USERS_PER_ORGANISATION, 'users per organisation');
      const row = usersRepo.newUserRow({
        id: newId(),
        org_id: orgId,
        created_at: now,
        email,
        email_key: email.toLowerCase(),
        first_name: firstName ?? '',
        last_name: lastName ?? '',
        roles: JSON.stringify(grants),
        ...extra,
      });
      await usersRepo.insertUser(trx, row);
      return row;
    };
    try {
      return await (db ? write(db) : this.store.transaction((trx) => write(trx.db)));
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('email', `a user with the email "${email}" already exists`);
      throw err;
    }
  }

  /**
   * Reads grants as the API spells them. Spelling is checked first (400, each named by its
   * place in the list); then each scoped grant must name a workgroup or workspace of the
   * organisation (404, likewise).
   */
  private async parseGrants(db: Executor, orgId: string, roles: string[]): Promise<Grant[]> {
    const problems = new Problems();
    const grants: Grant[] = [];
    for (const [i, text] of roles.entries()) {
      const at = text.indexOf(':');
      const role = (at < 0 ? text : text.slice(0, at)) as UserRole;
      const id = at < 0 ? null : text.slice(at + 1);
      const field = `roles[${i}]`;
      if (!userRoles.includes(role)) problems.add(field, `is not a role; roles are ${userRoles.join(', ')}`);
      else if (roleScope[role] && !id)
        problems.add(field, `${role} is granted on one ${roleScope[role]}: ${role}:<id>`);
      else if (!roleScope[role] && id !== null) problems.add(field, `${role} is an organisation role: it takes no id`);
      else grants.push({ role, resource_id: id });
    }
    problems.throwIfAny();
    const missing = new Problems();
    for (const [i, g] of grants.entries()) {
      const scope = roleScope[g.role];
      if (!scope) continue;
      const found =
        scope === 'workgroup'
          ? await findWorkgroup(db, orgId, g.resource_id!)
          : await findWorkspace(db, orgId, g.resource_id!);
      if (!found) missing.add(`roles[${i}]`, `no ${scope} "${g.resource_id}" in this organisation`);
    }
    missing.throwIfAny('not-found');
    const seen = new Set<string>();
    return grants.filter((g) => !seen.has(grantText(g)) && seen.add(grantText(g)));
  }
}
