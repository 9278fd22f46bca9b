import type { Store } from '../store/store.js';
import * as repo from '../store/repositories/db-tokens.js';
import type { DbToken } from '../store/repositories/db-tokens.js';
import { lockRow } from '../store/repositories/row-locks.js';
import type { Clock } from './clock.js';
import { checkGraphName, digest, newCredential, passwordStamp, type DbIdentity } from './db-credentials.js';
import { AppError } from './errors.js';
import { newId } from './ids.js';

/** Tokens in force one database user may hold; expired and revoked ones do not count. */
export const LIVE_TOKENS_PER_USER = 1000;

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/** Why a token does not authenticate. */
export type TokenProblem = 'unknown' | 'expired' | 'revoked';

export type TokenCheck = { identity: DbIdentity; graph: string | null } | { problem: TokenProblem };

/**
 * Refuses a token as the credential of a request that makes or prolongs credentials: a token
 * must not outlive its expiry by begetting another.
 */
function needsSecretOrPassword(identity: DbIdentity, what: string): void {
  if (identity.via === 'token')
    throw new AppError('forbidden', {
      field: 'Authorization',
      reason:
        `must carry a secret or the password of "${identity.username}" for ${what}; ` + 'a token cannot be used for it',
    });
}

/**
 * REST++ tokens of a workspace's database users (/gsql/v1/tokens, /restpp/requesttoken). A
 * token authenticates as its user in its workspace until it expires on the injectable clock,
 * its secret is dropped, or its user is deleted or gets a new password.
 */
export class DbTokenService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async issue(identity: DbIdentity, lifetimeSeconds: number, graph: string | undefined): Promise<IssuedToken> {
    needsSecretOrPassword(identity, 'requesting a token');
    if (graph !== undefined) checkGraphName(graph);
    const now = this.clock.now();
    const token = newCredential();
    const row: DbToken = {
      id: newId(),
      org_id: identity.orgId,
      workspace_id: identity.workspaceId,
      db_user_id: identity.userId,
      secret_id: identity.secretId ?? null,
      token_hash: digest(token),
      graph: graph ?? null,
      password_stamp: identity.passwordStamp,
      created_at: now,
      expires_at: now + lifetimeSeconds * 1000,
    };
    await this.store.transaction(async (trx) => {
      await lockRow(trx.db, 'db_users', identity.userId);
      // Tokens that can never work again are forgotten here rather than by a sweeper.
      await repo.pruneDeadTokens(trx.db, identity.userId, now, identity.passwordStamp);
      const live = await repo.countLiveTokens(trx.db, identity.userId, now, identity.passwordStamp);
      if (live >= LIVE_TOKENS_PER_USER)
        throw new AppError('quota', {
          field: '',
          reason:
            `the limit of ${LIVE_TOKENS_PER_USER} tokens in force per database user is reached; ` +
            'delete some or let them expire',
        });
      await repo.insertToken(trx.db, row);
    });
    return { token, expiresAt: row.expires_at };
  }

  /** Sets a token of the caller to expire `lifetimeSeconds` from now (TigerGraph 3.x refresh). */
  async refresh(identity: DbIdentity, token: string, lifetimeSeconds: number): Promise<IssuedToken> {
    needsSecretOrPassword(identity, 'refreshing a token');
    const now = this.clock.now();
    const [found] = await repo.findUserTokens(this.store.db, identity.userId, [digest(token)]);
    if (!found || found.expires_at <= now || found.password_stamp !== identity.passwordStamp)
      throw new AppError('not-found', {
        field: 'token',
        reason: `does not exist for user "${identity.username}", has expired or was revoked`,
      });
    const expiresAt = now + lifetimeSeconds * 1000;
    await repo.setTokenExpiry(this.store.db, found.id, expiresAt);
    return { token, expiresAt };
  }

  /**
   * Deletes the caller's tokens among those given; returns how many of them existed. A user
   * holds at most LIVE_TOKENS_PER_USER, so a request naming more distinct ones is refused
   * before any is looked up: its cost, and its statement's size, stay bounded.
   */
  async revoke(identity: DbIdentity, tokens: string[]): Promise<number> {
    const distinct = [...new Set(tokens)];
    if (distinct.length > LIVE_TOKENS_PER_USER)
      throw new AppError('invalid', {
        field: 'tokens',
        reason: `names ${distinct.length} tokens; at most ${LIVE_TOKENS_PER_USER} can be deleted at once`,
      });
    const found = await repo.findUserTokens(this.store.db, identity.userId, distinct.map(digest));
    return repo.deleteTokens(
      this.store.db,
      identity.userId,
      found.map((t) => t.id),
    );
  }

  /** Who the token authenticates as in this workspace, or why it does not. */
  async resolve(workspaceId: string, orgId: string, token: string): Promise<TokenCheck> {
    const found = await repo.findTokenByHash(this.store.db, workspaceId, digest(token));
    if (!found) return { problem: 'unknown' };
    if (found.expires_at <= this.clock.now()) return { problem: 'expired' };
    const stamp = passwordStamp(found.password_hash);
    if (found.password_stamp !== stamp) return { problem: 'revoked' };
    return {
      graph: found.graph,
      identity: {
        orgId,
        workspaceId,
        userId: found.db_user_id,
        username: found.username,
        passwordStamp: stamp,
        via: 'token',
        ...(found.secret_id ? { secretId: found.secret_id } : {}),
      },
    };
  }
}
