import type { Store } from '../store.js';
import { fixedRead } from '../fixed-read.js';
import { entriesOfWorkgroups } from './allow-list.js';
import { secretByHash } from './db-secrets.js';
import { dbUserByName } from './db-users.js';
import { workgroupFromRow } from './workgroups.js';
import { workspaceFromRow } from './workspaces.js';

/**
 * What the gateway reads to admit each request (allow list, credentials, the workspace's
 * state), by fixed statements (fixed-read.ts): the same queries as the repositories' own, each
 * read fresh from the store, without the cost of building them per request.
 */

const workspaceRead = fixedRead('acacia_admit_workspace', (db, v) =>
  db.selectFrom('workspaces').selectAll().where('id', '=', v(0)),
);
const workgroupRead = fixedRead('acacia_admit_workgroup', (db, v) =>
  db.selectFrom('workgroups').selectAll().where('id', '=', v(0)),
);
const entriesRead = fixedRead('acacia_admit_allow_list', (db, v) => entriesOfWorkgroups(db, [v(0)], v(1)));
const userRead = fixedRead('acacia_admit_db_user', (db, v) => dbUserByName(db, v(0), v(1)));
const secretRead = fixedRead('acacia_admit_secret', (db, v) => secretByHash(db, v(0), v(1)));

export async function workspaceToAdmit(store: Store, id: string) {
  const row = await workspaceRead.first(store, id);
  return row && workspaceFromRow(row);
}

export async function workgroupToAdmit(store: Store, id: string) {
  const row = await workgroupRead.first(store, id);
  return row && workgroupFromRow(row);
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
