import type { Store } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as repo from '../store/repositories/db-secrets.js';
import type { DbSecret } from '../store/repositories/db-secrets.js';
import { secretToAdmit } from '../store/repositories/admission.js';
import { lockRow } from '../store/repositories/row-locks.js';
import type { Clock } from './clock.js';
import {
  checkAlias,
  digest,
  generatedAlias,
  GENERATED_ALIAS_PREFIX,
  maskSecret,
  newCredential,
  passwordStamp,
  type DbIdentity,
} from './db-credentials.js';
import { AppError, conflict } from './errors.js';
import { newId } from './ids.js';

/**
 * Secrets one database user may hold at once: far above what clients use (pyTigerGraph's own
 * tests make one per connection, some hundreds a run, and never drop them), yet a bound on
 * what one user can store. At the bound a new secret replaces the oldest auto-generated one.
 */
export const SECRETS_PER_USER = 10_000;

/** A secret as listings show it: never the secret itself. */
export interface SecretView {
  alias: string;
  masked: string;
  createdAt: number;
}

export interface CreatedSecret {
  alias: string;
  /** The secret itself: shown in this answer only. */
  secret: string;
}

export interface DropOutcome {
  /** The names given that matched a secret (by alias or by the secret itself), in the order given. */
  dropped: string[];
  missing: string[];
}

const view = (s: DbSecret): SecretView => ({ alias: s.alias, masked: s.masked, createdAt: s.created_at });

/** In TigerGraph's words, which pyTigerGraph looks for ("already exists"). */
export const aliasTaken = (alias: string) => conflict('', `The secret with alias ${alias} already exists.`);

/**
 * GSQL secrets of a workspace's database users (CREATE/SHOW/DROP SECRET, /gsql/v1/secrets).
 * A secret belongs to one user of one workspace and authenticates as that user there only.
 */
export class DbSecretService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * A new secret for the caller. Only the password may make one: a secret or a token made
   * from another credential would outlive that credential's revocation.
   */
  async create(identity: DbIdentity, alias: string | undefined): Promise<CreatedSecret> {
    if (identity.via !== 'password')
      throw new AppError('forbidden', {
        field: 'Authorization',
        reason:
          `must carry the password of "${identity.username}" (Basic credentials) to create a secret; ` +
          `a ${identity.via} cannot create one`,
      });
    const chosen = alias === undefined || alias === '' ? generatedAlias() : checkAlias(alias);
    const secret = newCredential();
    const row: DbSecret = {
      id: newId(),
      org_id: identity.orgId,
      workspace_id: identity.workspaceId,
      db_user_id: identity.userId,
      alias: chosen,
      secret_hash: digest(secret),
      masked: maskSecret(secret),
      created_at: this.clock.now(),
    };
    try {
      await this.store.transaction(async (trx) => {
        await lockRow(trx.db, 'db_users', identity.userId);
        // Counted under the user's row lock, so concurrent creations never pass the bound together.
        if (await repo.findSecretByAlias(trx.db, identity.userId, chosen)) throw aliasTaken(chosen);
        if ((await repo.countSecrets(trx.db, identity.userId)) >= SECRETS_PER_USER) {
          // Clients that make a secret per connection never name them: the oldest of those goes
          // (its tokens with it). Secrets a user named are only ever dropped by the user.
          const oldest = await repo.oldestGeneratedSecret(trx.db, identity.userId, GENERATED_ALIAS_PREFIX);
          if (!oldest)
            throw new AppError('quota', {
              field: 'alias',
              reason:
                `the limit of ${SECRETS_PER_USER} secrets per database user is reached and all are named; ` +
                'drop one first',
            });
          await repo.deleteSecrets(trx.db, identity.userId, [oldest]);
        }
        await repo.insertSecret(trx.db, row);
      });
    } catch (err) {
      // A concurrent create of the same alias; a digest clash of two random secrets does not happen.
      if (isUniqueViolation(err)) throw aliasTaken(chosen);
      throw err;
    }
    return { alias: chosen, secret };
  }

  async list(identity: DbIdentity): Promise<SecretView[]> {
    return (await repo.listSecrets(this.store.db, identity.userId)).map(view);
  }

  async get(identity: DbIdentity, alias: string): Promise<SecretView | undefined> {
    const found = (await repo.listSecrets(this.store.db, identity.userId)).find((s) => s.alias === alias);
    return found && view(found);
  }

  /** Drops the caller's secrets named by alias or by the secret itself; tokens requested with them go too. */
  async drop(identity: DbIdentity, names: string[]): Promise<DropOutcome> {
    return this.store.transaction(async (trx) => {
      const secrets = await repo.listSecrets(trx.db, identity.userId);
      const ids = new Set<string>();
      const outcome: DropOutcome = { dropped: [], missing: [] };
      for (const name of names) {
        const hashed = digest(name);
        const match = secrets.find((s) => s.alias === name) ?? secrets.find((s) => s.secret_hash === hashed);
        if (match) {
          ids.add(match.id);
          outcome.dropped.push(name);
        } else outcome.missing.push(name);
      }
      await repo.deleteSecrets(trx.db, identity.userId, [...ids]);
      return outcome;
    });
  }

  /** Who the secret authenticates as in this workspace, or undefined when it is not one of its secrets. */
  async resolve(workspaceId: string, orgId: string, secret: string): Promise<DbIdentity | undefined> {
    const found = await secretToAdmit(this.store, workspaceId, digest(secret));
    if (!found) return undefined;
    return {
      orgId,
      workspaceId,
      userId: found.db_user_id,
      username: found.username,
      passwordStamp: passwordStamp(found.password_hash),
      via: 'secret',
      secretId: found.id,
    };
  }
}
