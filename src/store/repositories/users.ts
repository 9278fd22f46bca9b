import type { Selectable } from 'kysely';
import type { UsersTable } from '../schema.js';
import type { Executor } from '../store.js';
import { countRows } from '../count-rows.js';
import { keyset, type CursorPosition } from '../pagination.js';

export type UserRow = Selectable<UsersTable>;

/** A new user's row: enabled, no invitation, no roles, nothing but `fields` set. */
export function newUserRow(fields: Pick<UserRow, 'id' | 'org_id' | 'created_at'> & Partial<UserRow>): UserRow {
  return {
    email: null,
    email_key: null,
    first_name: '',
    last_name: '',
    enabled: 1,
    is_owner: 0,
    platform_admin: 0,
    roles: '[]',
    invite_hash: null,
    invited_at: null,
    invite_expires_at: null,
    accepted_at: null,
    created_by: null,
    updated_at: fields.created_at,
    ...fields,
  };
}

/**
 * The user an organisation's keys belong to until people are added: enabled, org admin,
 * without an email. A new organisation gets one, and so does each organisation of a snapshot
 * taken before there were users.
 */
export function ownerRow(id: string, orgId: string, now: number): UserRow {
  return newUserRow({
    id,
    org_id: orgId,
    created_at: now,
    first_name: 'Organisation',
    last_name: 'owner',
    is_owner: 1,
    roles: JSON.stringify([{ role: 'org-admin', resource_id: null }]),
  });
}

export async function insertUser(db: Executor, user: UserRow): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function findUser(db: Executor, orgId: string, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: Executor, orgId: string, emailKey: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('email_key', '=', emailKey)
    .executeTakeFirst();
}

export async function findUserByInvite(db: Executor, inviteHash: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('invite_hash', '=', inviteHash).executeTakeFirst();
}

/** The organisation's owner: the user its bootstrap and CLI keys belong to. */
export async function findOwner(db: Executor, orgId: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('is_owner', '=', 1)
    .orderBy('created_at')
    .executeTakeFirst();
}

/** A page of the organisation's users in creation order (limit + 1 rows: see toPage). */
export async function listUsers(
  db: Executor,
  orgId: string,
  limit: number,
  after: CursorPosition | undefined,
): Promise<UserRow[]> {
  return keyset(db.selectFrom('users').selectAll().where('org_id', '=', orgId), limit, after).execute();
}

/** Every enabled user of the organisation holding a grant of `role` (a bounded set: users are counted). */
export async function enabledUsersWithRole(db: Executor, orgId: string, role: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('enabled', '=', 1)
    .where('roles', 'like', `%"role":"${role}"%`)
    .execute();
}

export async function countUsers(db: Executor, orgId: string): Promise<number> {
  return countRows(db.selectFrom('users').where('org_id', '=', orgId));
}

export async function updateUser(
  db: Executor,
  id: string,
  changes: Partial<Omit<UserRow, 'id' | 'org_id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Spends an invitation: only while its token is still the user's; returns whether it did. */
export async function claimInvitation(
  db: Executor,
  id: string,
  inviteHash: string,
  changes: Partial<Omit<UserRow, 'id' | 'org_id' | 'created_at'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ ...changes, invite_hash: null })
    .where('id', '=', id)
    .where('invite_hash', '=', inviteHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
