import type { DB } from '../schema.js';
import type { Executor } from '../store.js';
import { nameKey } from '../name-key.js';

/**
 * The tables that hold the instance's state, parents before children (foreign keys point
 * back only), so inserting in this order and deleting in the reverse order never breaks a
 * reference. Left out: idempotency_keys (stored answers a retry within the day replays, tied
 * to the keys that sent them), workspace_runtimes (which process serves a workspace now:
 * a fact about running processes, not state) and manual_clock (the clock never goes back).
 */
export const stateTables = [
  'organisations',
  'api_keys',
  'cloud_providers',
  'workgroups',
  'databases',
  'workspaces',
  'operations',
  'allow_list_entries',
  'db_users',
  'db_secrets',
  'db_tokens',
  'installed_addons',
  'addon_configs',
  'backups',
  'backup_schedules',
  'schedules',
  'schedule_runs',
  'events',
  'webhooks',
  'webhook_deliveries',
] as const satisfies readonly (keyof DB)[];

export type StateTable = (typeof stateTables)[number];

/** Tables emptied along with the state though no snapshot carries them. */
const transientTables = ['idempotency_keys', 'workspace_runtimes'] as const satisfies readonly (keyof DB)[];

/** What survives emptying the instance: one organisation and one of its keys, by name. */
export interface Kept {
  organisation: string;
  key: string;
}

/**
 * Empties the instance, but for the kept organisation and key and the public cloud providers
 * (the catalog's, which every instance has). Children first, so no reference is left dangling
 * on a store that checks them at each statement. Run inside the caller's transaction.
 */
export async function emptyInstance(db: Executor, kept?: Kept): Promise<void> {
  for (const table of transientTables) await db.deleteFrom(table).execute();
  for (const table of [...stateTables].reverse()) {
    if (table === 'organisations' && kept) {
      await db.deleteFrom('organisations').where('name_key', '<>', nameKey(kept.organisation)).execute();
    } else if (table === 'api_keys' && kept) {
      await db
        .deleteFrom('api_keys')
        .where((eb) =>
          eb.or([
            eb('key_name', '<>', kept.key),
            eb(
              'org_id',
              'not in',
              eb.selectFrom('organisations').select('id').where('name_key', '=', nameKey(kept.organisation)),
            ),
          ]),
        )
        .execute();
    } else if (table === 'cloud_providers' && kept) {
      await db.deleteFrom('cloud_providers').where('org_id', 'is not', null).execute();
    } else await db.deleteFrom(table).execute();
  }
}
