import { newId } from './ids.js';
import type { Store } from '../store/store.js';
import * as orgsRepo from '../store/repositories/organisations.js';
import type { Organisation } from '../store/repositories/organisations.js';
import type { Clock } from './clock.js';
import { tiers, type Tier } from '../schemas/catalog.js';
import type { ApiKeyService } from './api-keys.js';
import { Problems, invalid } from './errors.js';
import { findOwner, insertUser, ownerRow } from '../store/repositories/users.js';
import { changeKey } from '../store/repositories/api-keys.js';
import type { Executor } from '../store/store.js';
import type { Organization, OrgQuota, OrgRequest } from '../schemas/organisation.js';
import { findSize, type Catalog } from './catalog.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { quotaUsage } from './quotas.js';
import { DEFAULT_RESERVED_DAYS } from './backup-schedules.js';
import { iso } from './time.js';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const GIB = 1024 ** 3;

/** The feature flags as the organisation row keeps them (`{name, enabled}`), in the real service's shape. */
function featureFlags(text: string | null): Organization['feature_flag'] {
  if (text === null) return [];
  const flags = JSON.parse(text) as Array<{ name: string; enabled: boolean }>;
  return flags.map((f) => ({ feature_name: f.name, enabled: f.enabled === true }));
}

/** A logo URL: https, no credentials in it. */
function logoProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (url.username || url.password) return 'must not carry credentials';
  return undefined;
}

export const BOOTSTRAP_ORG = 'default';
export const BOOTSTRAP_KEY_NAME = 'bootstrap';

export class OrganisationService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeyService,
    private readonly catalog: Catalog,
  ) {}

  /** The caller's organisation in the real service's Organization shape. */
  async self(p: Principal): Promise<Organization> {
    const org = (await orgsRepo.findOrganisationProfile(this.store.db, p.orgId))!;
    const owner = await findOwner(this.store.db, p.orgId);
    return {
      org_id: org.id,
      org_name: org.name,
      org_display_name: org.display_name ?? org.name,
      ...(org.logo_url !== null ? { logo_url: org.logo_url } : {}),
      create_time: iso(org.created_at),
      creator: owner?.id ?? '',
      tier: org.tier,
      feature_flag: featureFlags(org.feature_flags),
      ...(org.delinquent_since !== null ? { delinquent_since: iso(org.delinquent_since) } : {}),
    };
  }

  /**
   * Sets the display name and logo (an empty string clears either). The name itself is not
   * changed here: `orgName` and `orgID`, when sent, must be the organisation's own. For org admins.
   */
  async update(p: Principal, body: OrgRequest): Promise<string> {
    authorize(p, 'org:admin');
    const problems = new Problems();
    if (body.orgID !== undefined && body.orgID !== p.orgId) problems.add('orgID', "is not the caller's organisation");
    if (body.orgName !== undefined && body.orgName !== p.orgName)
      problems.add('orgName', `cannot be changed (the organisation is "${p.orgName}")`);
    const display = body.orgDisplayName?.normalize('NFC').trim();
    if (display !== undefined && CONTROL.test(display))
      problems.add('orgDisplayName', 'must not contain control or formatting characters');
    const logo = body.logoUrl?.trim();
    const logoWrong = logo ? logoProblem(logo) : undefined;
    if (logoWrong) problems.add('logoUrl', logoWrong);
    problems.throwIfAny();
    const changes = {
      ...(display !== undefined ? { display_name: display === '' ? null : display } : {}),
      ...(logo !== undefined ? { logo_url: logo === '' ? null : logo } : {}),
    };
    if (Object.keys(changes).length > 0)
      await changeKey(this.store, p.orgId, () => orgsRepo.updateOrganisationProfile(this.store.db, p.orgId, changes));
    return p.orgId;
  }

  /** The tier's limits beside what the organisation uses of them now; for every key of the organisation. */
  async quota(p: Principal): Promise<OrgQuota> {
    const org = (await orgsRepo.findOrganisationById(this.store.db, p.orgId))!;
    const tier = org.tier as Tier;
    const limits = this.catalog.tiers[tier];
    const usage = await quotaUsage(this.store.db, this.catalog, p.orgId);
    return {
      org_id: org.id,
      tier,
      max_workspace_type: limits.max_size,
      max_workspace_memory: `${findSize(this.catalog, limits.max_size)?.memory_gb ?? 0}GB`,
      memory_limit: `${limits.memory_gb}GB`,
      memory_usage_in_bytes: usage.memoryGb * GIB,
      rw_workspace_count_limit: limits.rw_workspaces,
      rw_workspace_count_usage: usage.rw,
      ro_workspace_count_limit: limits.ro_workspaces,
      ro_workspace_count_usage: usage.ro,
      workspace_manual_backup_count_limit: limits.manual_backups,
      workspace_auto_backup_count_limit: limits.auto_backups,
      workspace_auto_backup_retention_in_days: DEFAULT_RESERVED_DAYS,
    };
  }

  /** Gives a new organisation its owner user, the one its first keys belong to. */
  private async addOwner(db: Executor, orgId: string): Promise<void> {
    if (!(await findOwner(db, orgId))) await insertUser(db, ownerRow(newId(), orgId, this.clock.now()));
  }

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
    await this.store.transaction(async (trx) => {
      await orgsRepo.lockOrganisation(trx.db, org.id);
      await this.addOwner(trx.db, org.id);
    });
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
      await this.addOwner(trx.db, org.id);
      const key = await this.apiKeys.issue(
        { orgId: org.id, keyName: BOOTSTRAP_KEY_NAME, role: 'org-admin', plaintext },
        trx,
      );
      return { plaintext: key.plaintext_key };
    });
  }
}
