import { newId } from './ids.js';
import type { Store } from '../store/store.js';
import * as orgsRepo from '../store/repositories/organisations.js';
import type { Organisation } from '../store/repositories/organisations.js';
import type { Clock } from './clock.js';
import { tiers, type Tier } from '../schemas/catalog.js';
import type { ApiKeyService } from './api-keys.js';
import { invalid } from './errors.js';

export const BOOTSTRAP_ORG = 'default';
export const BOOTSTRAP_KEY_NAME = 'bootstrap';

export class OrganisationService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeyService,
  ) {}

  /** Returns the organisation, creating it (with the tier, default free) when missing; a given tier is applied. */
  async ensure(name: string, tier?: Tier): Promise<Organisation> {
    if (!/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/.test(name)) {
      throw invalid(
        'org',
        'must be 1-64 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit',
      );
    }
    if (tier !== undefined && !tiers.includes(tier)) throw invalid('tier', `must be one of ${tiers.join(', ')}`);
    await orgsRepo.insertOrganisation(this.store.db, {
      id: newId(),
      name,
      tier: tier ?? 'free',
      created_at: this.clock.now(),
    });
    const org = (await orgsRepo.findOrganisationByName(this.store.db, name))!;
    if (tier !== undefined && org.tier !== tier) {
      await orgsRepo.updateOrganisationTier(this.store.db, org.id, tier);
      org.tier = tier;
    }
    return org;
  }

  async find(name: string): Promise<Organisation | undefined> {
    return orgsRepo.findOrganisationByName(this.store.db, name);
  }

  /**
   * On an empty store, creates the enterprise organisation `default` and its first
   * org-admin key. Returns the key when this call created it; concurrent starts on one
   * PostgreSQL agree through the organisation's unique name.
   */
  async bootstrap(plaintext?: string): Promise<{ plaintext?: string } | undefined> {
    return this.store.transaction(async (trx) => {
      if ((await orgsRepo.countOrganisations(trx.db)) > 0) return undefined;
      const org = { id: newId(), name: BOOTSTRAP_ORG, tier: 'enterprise', created_at: this.clock.now() };
      if (!(await orgsRepo.insertOrganisation(trx.db, org))) return undefined;
      const key = await this.apiKeys.issue(
        { orgId: org.id, keyName: BOOTSTRAP_KEY_NAME, role: 'org-admin', plaintext },
        trx,
      );
      return { plaintext: key.plaintext_key };
    });
  }
}
