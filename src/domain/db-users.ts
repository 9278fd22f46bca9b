import { newId } from './ids.js';
import type { Store, Tx } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as repo from '../store/repositories/db-users.js';
import type { DbUser } from '../store/repositories/db-users.js';
import type { Workspace } from '../store/repositories/workspaces.js';
import { lockRow } from '../store/repositories/row-locks.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import type { DbUserBody, DbUserRecord, DeleteDbUserBody } from '../schemas/db-user.js';
import { Problems, conflict, notFound } from './errors.js';
import { hashPassword, passwordProblem, usernameProblem } from './passwords.js';
import type { Principal } from './principal.js';
import { checkCount } from './quotas.js';
import { iso } from './time.js';
import type { WorkspaceService } from './workspaces.js';

function userRecord(u: DbUser): DbUserRecord {
  const created = iso(u.created_at);
  const updated = iso(u.updated_at);
  return {
    id: u.id,
    username: u.username,
    enabled: true,
    created,
    updated,
    workspace_id: u.workspace_id,
    created_at: created,
    updated_at: updated,
  };
}

const duplicate = (username: string) =>
  conflict('username', `a database user "${username}" already exists in this workspace`);

/** The database users of a workspace, whom the gateway authenticates. Passwords are kept only as scrypt hashes. */
export class DbUserService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workspaces: WorkspaceService,
  ) {}

  async list(p: Principal, workgroupId: string, workspaceId: string): Promise<DbUserRecord[]> {
    const ws = await this.workspaces.load(p, workgroupId, workspaceId);
    return (await repo.listDbUsers(this.store.db, ws.id)).map(userRecord);
  }

  async create(
    p: Principal,
    workgroupId: string,
    workspaceId: string,
    body: DbUserBody,
    tx?: Tx,
  ): Promise<DbUserRecord> {
    const ws = await this.workspaces.editable(p, workgroupId, workspaceId, tx);
    this.validate(body, true);
    if (await repo.findDbUser(this.store.reader(tx), ws.id, body.username)) throw duplicate(body.username);
    const now = this.clock.now();
    const user: DbUser = {
      id: newId(),
      org_id: ws.org_id,
      workspace_id: ws.id,
      username: body.username,
      password_hash: await hashPassword(body.password),
      created_at: now,
      updated_at: now,
    };
    const limit = this.catalog.limits.db_users_per_workspace;
    try {
      await this.store.unit(tx, async (trx) => {
        await lockRow(trx.db, 'workspaces', ws.id);
        checkCount('workspaceID', await repo.countDbUsers(trx.db, ws.id), limit, 'database users per workspace');
        await repo.insertDbUser(trx.db, user);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate(body.username);
      throw err;
    }
    return userRecord(user);
  }

  /** Sets a new password for `username`. */
  async update(p: Principal, workgroupId: string, workspaceId: string, body: DbUserBody): Promise<DbUserRecord> {
    const ws = await this.workspaces.editable(p, workgroupId, workspaceId);
    this.validate(body, false);
    const user = await this.find(ws, body.username);
    const now = this.clock.now();
    await repo.updateDbUserPassword(this.store.db, user.id, await hashPassword(body.password), now);
    return userRecord({ ...user, updated_at: now });
  }

  /** Returns the user as it was. */
  async delete(p: Principal, workgroupId: string, workspaceId: string, body: DeleteDbUserBody): Promise<DbUserRecord> {
    const ws = await this.workspaces.editable(p, workgroupId, workspaceId);
    const user = await this.find(ws, body.username);
    await repo.deleteDbUser(this.store.db, user.id);
    return userRecord(user);
  }

  private async find(ws: Workspace, username: string): Promise<DbUser> {
    const user = await repo.findDbUser(this.store.db, ws.id, username);
    if (!user) throw notFound('username', `no database user "${username}" in workspace ${ws.id}`);
    return user;
  }

  /** Username rules apply when a user is created; an existing user keeps the name it has. */
  private validate(body: DbUserBody, creating: boolean): void {
    const problems = new Problems();
    const nameProblem = creating ? usernameProblem(body.username) : undefined;
    if (nameProblem) problems.add('username', nameProblem);
    const weak = passwordProblem(body.password, body.username);
    if (weak) problems.add('password', weak);
    problems.throwIfAny();
  }
}
