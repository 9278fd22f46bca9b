import { newId } from './ids.js';
import type { Store, Tx } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as providersRepo from '../store/repositories/cloud-providers.js';
import type { CloudProviderChanges, CloudProviderRow } from '../store/repositories/cloud-providers.js';
import type {
  CloudProviderRecord,
  CreateCloudProviderBody,
  UpdateCloudProviderBody,
  UpgradeCloudProviderBody,
  ValidateCloudProviderBody,
} from '../schemas/cloud-provider.js';
import type { Clock } from './clock.js';
import { publicProviders, type Catalog } from './catalog.js';
import {
  enqueueCloudProviderOperation,
  transitionalProviderStatuses,
  type RoleVerifier,
} from './cloud-provider-operations.js';
import {
  checkRegistration,
  checkProviderTestEnv,
  isSemver,
  mergeNodeGroups,
  parseAwsRoleArn,
  renderComponentVersions,
  roleName,
} from './cloud-provider-rules.js';
import { AppError, Problems, conflict, forbidden, invalid, notFound, refusedByReference } from './errors.js';
import { authorize } from './permissions.js';
import { checkCount } from './quotas.js';
import { lockOrganisation } from '../store/repositories/organisations.js';
import type { Principal } from './principal.js';
import { acceptName, requireName } from './names.js';
import type { TestEnvCheck } from './test-env.js';
import { iso } from './time.js';
import { checkIfMatch } from './workgroups.js';

/** The record of the contract: fields the service has not filled are absent, never invented. */
export function toCloudProviderRecord(row: CloudProviderRow): CloudProviderRecord {
  const optional = {
    org_id: row.org_id,
    created_by: row.created_by,
    version: row.version,
    api_tokens: row.api_tokens,
    availability_zones: row.availability_zones,
    cluster_enabled_log_types: row.cluster_enabled_log_types,
    component_versions: row.component_versions ? renderComponentVersions(row.component_versions) : null,
    cluster_id: row.cluster_id,
    endpoint_service_name: row.endpoint_service_name,
    last_error: row.last_error,
    node_group_config: row.node_group_config,
    options: row.options,
    role_arn: row.role_arn,
    role_external_id: row.role_external_id,
    security_group_id: row.security_group_id,
    vpc_id: row.vpc_id,
    subnet_id: row.subnet_id,
    vpc_owned_by_tg: row.vpc_owned_by_tg,
    work_dir: row.work_dir,
  };
  return {
    id: row.id,
    short_id: row.short_id,
    name: row.name,
    type: row.type as CloudProviderRecord['type'],
    platform: row.platform as CloudProviderRecord['platform'],
    region: row.region,
    status: row.status as CloudProviderRecord['status'],
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== null && v !== undefined && v !== '')),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    version_number: row.version_number,
  };
}

const duplicateName = (name: string) =>
  conflict('name', `a cloud provider named "${name}" already exists in this organisation`);
const concurrentChange = () =>
  conflict('version_number', 'the cloud provider was changed by another request; read it again and retry');

export class CloudProviderService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    /** Asks the provisioner whether a customer's role can be assumed (operation 19). */
    private readonly roles: RoleVerifier,
    /** Wakes the engine when an operation was enqueued. */
    private readonly notify: (tx?: Tx) => void,
    /** Answers whether an x_test_env is acceptable (fault injection). */
    private readonly testEnv: TestEnvCheck,
  ) {}

  /** Makes the public providers in the store match the catalog; run at start-up. */
  async seedPublic(): Promise<void> {
    const seeds = publicProviders(this.catalog).map((p) => ({
      id: p.id,
      short_id: p.shortId,
      name: p.name,
      platform: p.platform,
      region: p.region,
    }));
    await this.store.transaction((trx) => providersRepo.syncPublicProviders(trx.db, seeds, this.clock.now()));
  }

  async list(p: Principal): Promise<CloudProviderRecord[]> {
    return (await providersRepo.listVisibleProviders(this.store.db, p.orgId)).map(toCloudProviderRecord);
  }

  /** The service-owned providers, apart from the organisation's own (`GET /cloud-providers/public`). */
  async listPublic(): Promise<CloudProviderRecord[]> {
    return (await providersRepo.listPublicProviders(this.store.db)).map(toCloudProviderRecord);
  }

  async get(p: Principal, id: string, tx?: Tx): Promise<CloudProviderRecord> {
    return toCloudProviderRecord(await this.load(p, id, tx));
  }

  /** Operation 18: registers the account and enqueues its provisioning; the record is Pending. */
  async create(p: Principal, body: CreateCloudProviderBody, tx?: Tx): Promise<CloudProviderRecord> {
    this.authorizeByoc(p);
    const problems = new Problems();
    if (body.type === 'public')
      problems.add('type', 'public providers are service-owned; only "private" providers may be registered');
    checkRegistration(
      problems,
      this.catalog,
      { ...body, account_id: body.options?.account_id },
      { account_id: 'options.account_id' },
    );
    checkProviderTestEnv(problems, body.x_test_env, this.testEnv);
    const name = acceptName(problems, 'name', body.name);
    const createdBy = acceptName(problems, 'created_by', body.created_by);
    problems.throwIfAny();

    const now = this.clock.now();
    const id = newId();
    const shortId = id.replace(/-/g, '').slice(-8);
    const row: providersRepo.NewCloudProvider = {
      id,
      short_id: shortId,
      org_id: p.orgId,
      name: name ?? `byoc-${shortId}`,
      type: 'private',
      platform: body.platform!,
      region: body.region!,
      status: 'Pending',
      created_by: createdBy ?? p.keyName,
      role_arn: body.role_arn!,
      role_external_id: body.role_external_id ?? null,
      options: body.options ?? null,
      x_test_env: body.x_test_env ?? null,
      created_at: now,
      updated_at: now,
      version_number: 1,
    };
    const limit = this.catalog.limits.cloud_providers_per_organisation;
    try {
      await this.store.unit(tx, async (trx) => {
        // Locked first, so concurrent registrations count one after another and cannot overshoot together.
        await lockOrganisation(trx.db, p.orgId);
        checkCount(
          'name',
          await providersRepo.countOwnProviders(trx.db, p.orgId),
          limit,
          'cloud providers per organisation',
        );
        await providersRepo.insertProvider(trx.db, row);
        await enqueueCloudProviderOperation(trx, row, { op: 'provision' }, now);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateName(row.name);
      throw err;
    }
    this.notify(tx);
    return this.get(p, id, tx);
  }

  /** Operation 19: checks a registration and whether the role can be assumed; creates nothing. */
  async validate(p: Principal, body: ValidateCloudProviderBody): Promise<string> {
    this.authorizeByoc(p);
    const problems = new Problems();
    checkRegistration(problems, this.catalog, body, { account_id: 'account_id' });
    checkProviderTestEnv(problems, body.x_test_env, this.testEnv);
    problems.throwIfAny();
    const answer = await this.roles.canAssumeRole(body);
    if (!answer.ok) throw invalid('role_arn', answer.reason);
    const account = parseAwsRoleArn(body.role_arn)?.account;
    const where = account ? `account ${account}` : `${body.platform} ${body.region}`;
    return `validation succeeded: role ${roleName(body.role_arn)} can be assumed in ${where}`;
  }

  /** Operation 20: renames the provider or records a deployment version. */
  async update(
    p: Principal,
    id: string,
    body: UpdateCloudProviderBody,
    ifMatch: number | undefined,
  ): Promise<CloudProviderRecord> {
    const provider = await this.loadOwned(p, id, ifMatch);
    if (body.version !== undefined && !isSemver(body.version))
      throw invalid('version', 'must be a version like 4.2.1 (major.minor.patch)');
    const name = requireName('name', body.name);
    const changes: CloudProviderChanges = { name, version: body.version };
    if (Object.values(changes).every((v) => v === undefined)) return toCloudProviderRecord(provider);
    let updated: boolean;
    try {
      // Without If-Match the change applies to the provider as it is: read it again under a
      // lock, so the engine moving it on meanwhile (Pending → Provisioning) is waited for
      // rather than reported as a conflict. With If-Match it applies to that version only.
      updated = await this.store.transaction(async (trx) => {
        const current = ifMatch === undefined ? await providersRepo.lockProviderById(trx.db, id) : provider;
        return !!current && providersRepo.updateProvider(trx.db, current, changes, this.clock.now());
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateName(name!);
      throw err;
    }
    if (!updated) throw concurrentChange();
    return this.get(p, id);
  }

  /** Operation 21: moves the provider to Upgrading and enqueues the upgrade; returns the operation id. */
  async upgrade(
    p: Principal,
    id: string,
    body: UpgradeCloudProviderBody,
    ifMatch: number | undefined,
  ): Promise<string> {
    const provider = await this.loadOwned(p, id, ifMatch);
    // A failed upgrade may be retried; a provider that never finished provisioning has nothing to upgrade.
    const upgradable = provider.status === 'Active' || (provider.status === 'Failed' && provider.cluster_id !== null);
    if (!upgradable) throw conflict('status', `the cloud provider is ${provider.status}; to upgrade it must be Active`);
    const problems = new Problems();
    const nodeGroups = mergeNodeGroups(problems, provider.node_group_config, body.node_group_config);
    problems.throwIfAny();

    const now = this.clock.now();
    const operationId = await this.store.transaction(async (trx) => {
      if (!(await providersRepo.updateProvider(trx.db, provider, { status: 'Upgrading', last_error: null }, now)))
        throw concurrentChange();
      return enqueueCloudProviderOperation(
        trx,
        provider,
        {
          op: 'upgrade',
          ...(body.node_group_config ? { node_group_config: nodeGroups } : {}),
          ...(body.cluster_enabled_log_types
            ? { cluster_enabled_log_types: [...new Set(body.cluster_enabled_log_types)] }
            : {}),
          ...(body.components ? { components: body.components } : {}),
        },
        now,
      );
    });
    this.notify();
    return operationId;
  }

  /** Deletes a private provider that no workgroup uses; returns the record as it was. */
  async delete(p: Principal, id: string, ifMatch: number | undefined): Promise<CloudProviderRecord> {
    const provider = await this.loadOwned(p, id, ifMatch);
    if ((transitionalProviderStatuses as readonly string[]).includes(provider.status)) {
      throw conflict('status', `the cloud provider is ${provider.status}; wait until it is Active or Failed`);
    }
    const users = await providersRepo.workgroupsUsingProvider(this.store.db, provider.id);
    if (users.length > 0)
      throw conflict('cloudProviderID', `workgroups still use this provider: ${users.join(', ')}; delete them first`);
    await providersRepo
      .deleteProvider(this.store.db, provider.id)
      .catch(
        refusedByReference('cloudProviderID', 'a workgroup was created on this provider meanwhile; delete it first'),
      );
    return toCloudProviderRecord(provider);
  }

  /** BYOC changes are org-admin work, and only on tiers that include BYOC. */
  private authorizeByoc(p: Principal): void {
    authorize(p, 'org:admin');
    if (!this.catalog.tiers[p.tier].byoc) {
      throw new AppError('disabled', {
        field: 'tier',
        reason: `bring-your-own-cloud providers are not available on the ${p.tier} tier; enterprise includes them`,
      });
    }
  }

  private async load(p: Principal, id: string, tx?: Tx): Promise<CloudProviderRow> {
    const row = await providersRepo.findVisibleProvider(this.store.reader(tx), p.orgId, id);
    if (!row) throw notFound('cloudProviderID', `no cloud provider "${id}"`);
    return row;
  }

  /** A private provider of the caller's organisation that the caller may change. */
  private async loadOwned(p: Principal, id: string, ifMatch: number | undefined): Promise<CloudProviderRow> {
    this.authorizeByoc(p);
    const provider = await this.load(p, id);
    if (provider.type !== 'private')
      throw forbidden('cloudProviderID', 'public providers are service-owned and cannot be changed');
    checkIfMatch(ifMatch, provider.version_number);
    return provider;
  }
}
