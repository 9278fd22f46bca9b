import type { Store } from '../store.js';
import { fixedRead } from '../fixed-read.js';
import { entriesOfWorkgroups } from './allow-list.js';
import { secretByHash } from './db-secrets.js';
import { dbUserByName } from './db-users.js';
import type { Workspace } from './workspaces.js';

/**
 * What the gateway reads to admit each request (allow list, credentials, the workspace's
 * state), by fixed statements (fixed-read.ts): the same queries as the repositories' own,
 * without the cost of building them per request. On SQLite the rows are remembered until the
 * next commit of any connection; the allow list, read with the time, is read every time.
 */

/**
 * What the gateway and a workspace's backend read of a workspace: a few text columns. All
 * 49 of them made the read ten times dearer, and it runs for every request.
 */
export type WorkspaceToAdmit = Pick<Workspace, 'id' | 'org_id' | 'status' | 'err_message' | 'tg_version' | 'endpoint'>;

/** The workspace with what admission needs of its workgroup, in one statement. */
const placedRead = fixedRead(
  'acacia_admit_workspace_placed',
  (db, v) =>
    db
      .selectFrom('workspaces')
      .leftJoin('workgroups', 'workgroups.id', 'workspaces.workgroup_id')
      .select([
        'workspaces.id',
        'workspaces.org_id',
        'workspaces.status',
        'workspaces.err_message',
        'workspaces.tg_version',
        'workspaces.endpoint',
        'workgroups.id as wg_id',
        'workgroups.org_id as wg_org_id',
        'workgroups.platform as wg_platform',
        'workgroups.region as wg_region',
        'workgroups.enable_allow_list as wg_enable_allow_list',
      ])
      .where('workspaces.id', '=', v(0)),
  { remember: true },
);
const entriesRead = fixedRead('acacia_admit_allow_list', (db, v) => entriesOfWorkgroups(db, [v(0)], v(1)));
const userRead = fixedRead('acacia_admit_db_user', (db, v) => dbUserByName(db, v(0), v(1)), { remember: true });
const secretRead = fixedRead('acacia_admit_secret', (db, v) => secretByHash(db, v(0), v(1)), {
  remember: true,
});

/** What of a workspace's workgroup admission reads: where it runs and whether its allow list is on. */
export interface WorkgroupToAdmit {
  id: string;
  org_id: string;
  platform: string;
  region: string;
  enable_allow_list: boolean;
}

/** The workspace and its workgroup (undefined when it has none), read together by one statement. */
export async function placedWorkspaceToAdmit(
  store: Store,
  id: string,
): Promise<{ ws: WorkspaceToAdmit; wg: WorkgroupToAdmit | undefined } | undefined> {
  const row = await placedRead.first(store, id);
  if (!row) return undefined;
  const { wg_id, wg_org_id, wg_platform, wg_region, wg_enable_allow_list, ...ws } = row;
  const wg: WorkgroupToAdmit | undefined =
    wg_id === null
      ? undefined
      : {
          id: wg_id,
          org_id: wg_org_id!,
          platform: wg_platform!,
          region: wg_region!,
          enable_allow_list: Number(wg_enable_allow_list) === 1,
        };
  return { ws, wg };
}

/** The workgroup's allow-list entries in force at `now`. */
export const allowListToAdmit = (store: Store, workgroupId: string, now: number) =>
  entriesRead.all(store, workgroupId, now);

/** The database user by name, ignoring case (as findDbUser). */
export const dbUserToAdmit = (store: Store, workspaceId: string, username: string) =>
  userRead.first(store, workspaceId, username.toLowerCase());

/** The secret with this digest in the workspace, with its user . */
export const secretToAdmit = (store: Store, workspaceId: string, secretHash: string) =>
  secretRead.first(store, workspaceId, secretHash);
