import type { Executor, Store } from '../store/store.js';
import type { Clock } from './clock.js';
import type { Catalog } from './catalog.js';
import { AddonConfigService } from './addon-configs.js';
import { AddonService } from './addons.js';
import { AllowListService } from './allow-list.js';
import { ApiKeyService } from './api-keys.js';
import { BackupScheduleService } from './backup-schedules.js';
import { BackupService } from './backups.js';
import type { RoleVerifier } from './cloud-provider-operations.js';
import { CloudProviderService } from './cloud-providers.js';
import { AppError } from './errors.js';
import { DatabaseService } from './databases.js';
import { DbUserService } from './db-users.js';
import { GatewayService } from './gateway.js';
import { IdempotencyService } from './idempotency.js';
import { OperationService } from './operations.js';
import { OrganisationService } from './organisations.js';
import { ScheduleService } from './schedules.js';
import { WorkgroupService } from './workgroups.js';
import { WorkspaceService } from './workspaces.js';

/** The domain, wired to one store and one clock. */
export interface Services {
  catalog: Catalog;
  clock: Clock;
  store: Store;
  apiKeys: ApiKeyService;
  organisations: OrganisationService;
  cloudProviders: CloudProviderService;
  addons: AddonService;
  addonConfigs: AddonConfigService;
  workgroups: WorkgroupService;
  workspaces: WorkspaceService;
  schedules: ScheduleService;
  databases: DatabaseService;
  allowList: AllowListService;
  dbUsers: DbUserService;
  backups: BackupService;
  backupSchedules: BackupScheduleService;
  gateway: GatewayService;
  operations: OperationService;
  idempotency: IdempotencyService;
}

export interface ServiceSettings {
  baseDomain: string;
  /** Called after an operation is enqueued, so the engine runs it without waiting for a poll. */
  notify?: () => void;
  /** Answers cloud provider validation (the provisioner driver); without it validation is unavailable. */
  roles?: RoleVerifier;
}

/** Used where no provisioner is wired (the CLI): validation cannot be answered there. */
const noRoleVerifier: RoleVerifier = {
  canAssumeRole: async () => {
    throw new AppError('unavailable', { field: 'role_arn', reason: 'no provisioner is available to check the role' });
  },
};

export function createServices(store: Store, clock: Clock, catalog: Catalog, settings: ServiceSettings): Services {
  const apiKeys = new ApiKeyService(store, clock);
  const workgroups = new WorkgroupService(store, clock, catalog, settings.baseDomain);
  const notify = settings.notify ?? (() => undefined);
  const addons = new AddonService(store, clock, catalog, workgroups);
  const addonEnabled = (db: Executor, orgId: string, addonsId: string) => addons.isEnabled(db, orgId, addonsId);
  const workspaces = new WorkspaceService(store, clock, catalog, workgroups, addonEnabled, notify);
  const backups = new BackupService(store, clock, catalog, workspaces, notify);
  return {
    catalog,
    clock,
    store,
    apiKeys,
    organisations: new OrganisationService(store, clock, apiKeys),
    cloudProviders: new CloudProviderService(store, clock, catalog, settings.roles ?? noRoleVerifier, notify),
    addons,
    addonConfigs: new AddonConfigService(store, clock, addons),
    workgroups,
    workspaces,
    schedules: new ScheduleService(store, clock, catalog, workspaces),
    databases: new DatabaseService(store, clock, workgroups),
    allowList: new AllowListService(store, clock, workgroups),
    dbUsers: new DbUserService(store, clock, workspaces),
    backups,
    backupSchedules: new BackupScheduleService(store, clock, catalog, workspaces),
    gateway: new GatewayService(store, clock, workspaces),
    operations: new OperationService(store),
    idempotency: new IdempotencyService(store, clock),
  };
}
