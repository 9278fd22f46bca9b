import type { Executor, Store, Tx } from '../store/store.js';
import type { Clock } from './clock.js';
import type { Catalog } from './catalog.js';
import { AddonConfigService } from './addon-configs.js';
import { AddonRequestService } from './addon-requests.js';
import { AddonService } from './addons.js';
import { AllowListService } from './allow-list.js';
import { ApiKeyService } from './api-keys.js';
import { BackupScheduleService } from './backup-schedules.js';
import { BackupService } from './backups.js';
import { BillingService, type BillingSettings } from './billing.js';
import type { RoleVerifier } from './cloud-provider-operations.js';
import { CloudProviderService } from './cloud-providers.js';
import { AppError } from './errors.js';
import { ChaosService } from './chaos.js';
import { DatabaseService } from './databases.js';
import { DbSecretService } from './db-secrets.js';
import { DbTokenService } from './db-tokens.js';
import { DbUserService } from './db-users.js';
import { EventFeed } from './event-feed.js';
import { GatewayService } from './gateway.js';
import { IdempotencyService } from './idempotency.js';
import { OperationService } from './operations.js';
import { OrganisationService } from './organisations.js';
import { UserService } from './users.js';
import { ScheduleService } from './schedules.js';
import { WorkgroupService, type WorkgroupExpirySettings } from './workgroups.js';
import { WebhookService, type WebhookSettings } from './webhooks.js';
import { resolveByDns } from './webhook-targets.js';
import { WorkspaceService } from './workspaces.js';
import { UpgradeService } from './upgrades.js';
import { WorkspaceMetricsService, type MetricsSettings, type ReadWorkspaceMetrics } from './workspace-metrics.js';
import { WorkgroupPool, poolOff, type PoolSettings } from './workgroup-pool.js';
import { faultInjectionOff, type TestEnvCheck } from './test-env.js';

/** The domain, wired to one store and one clock. */
export interface Services {
  catalog: Catalog;
  clock: Clock;
  store: Store;
  apiKeys: ApiKeyService;
  organisations: OrganisationService;
  users: UserService;
  cloudProviders: CloudProviderService;
  addons: AddonService;
  addonConfigs: AddonConfigService;
  addonRequests: AddonRequestService;
  workgroups: WorkgroupService;
  workspaces: WorkspaceService;
  upgrades: UpgradeService;
  schedules: ScheduleService;
  databases: DatabaseService;
  allowList: AllowListService;
  dbUsers: DbUserService;
  dbSecrets: DbSecretService;
  dbTokens: DbTokenService;
  backups: BackupService;
  backupSchedules: BackupScheduleService;
  gateway: GatewayService;
  operations: OperationService;
  idempotency: IdempotencyService;
  events: EventFeed;
  webhooks: WebhookService;
  chaos: ChaosService;
  metrics: WorkspaceMetricsService;
  billing: BillingService;
  pool: WorkgroupPool;
}

export interface ServiceSettings {
  baseDomain: string;
  /** Called after an operation is enqueued, so the engine runs it without waiting for a poll. */
  notify?: () => void;
  /** Answers cloud provider validation (the provisioner driver); without it validation is unavailable. */
  roles?: RoleVerifier;
  /** Whether an x_test_env is accepted (fault injection, ACACIA_FAULT_INJECTION); refused unless given. */
  testEnv?: TestEnvCheck;
  /** Where webhook secrets come from and whether private targets are allowed; without it webhooks cannot be created. */
  webhooks?: WebhookSettings;
  /** How far ahead a workgroup may expire, and the default life of a new one (none unless given). */
  workgroupExpiry?: WorkgroupExpirySettings;
  /** Request-level chaos rules (fault injection), shared with the engine; off unless given. */
  chaos?: ChaosService;
  /** Reads a running workspace's figures (the driver); without it running workspaces report down. */
  readMetrics?: ReadWorkspaceMetrics;
  metrics?: MetricsSettings;
  /** The outside services behind payments and the onboarding chat (none unless given). */
  billing?: BillingSettings;
  /** The workgroup pool (ACACIA_POOL_*); off unless given. */
  pool?: PoolSettings;
  /** Asks the engine to refill the pool after an acquisition. */
  poolRefill?: () => void;
}

const noMetricsReader: ReadWorkspaceMetrics = async () => {
  throw new Error('no provisioner is available to read workspace metrics');
};

const noWebhookKey: WebhookSettings = {
  allowPrivate: false,
  resolve: resolveByDns,
  key: () => {
    throw new AppError('unavailable', { field: 'url', reason: 'webhooks are not available here' });
  },
};

/** Used where no provisioner is wired (the CLI): validation cannot be answered there. */
const noRoleVerifier: RoleVerifier = {
  canAssumeRole: async () => {
    throw new AppError('unavailable', { field: 'role_arn', reason: 'no provisioner is available to check the role' });
  },
};

export function createServices(store: Store, clock: Clock, catalog: Catalog, settings: ServiceSettings): Services {
  const apiKeys = new ApiKeyService(store, clock, catalog);
  const workgroups = new WorkgroupService(store, clock, catalog, settings.baseDomain, settings.workgroupExpiry);
  const wake = settings.notify ?? (() => undefined);
  // Work enqueued inside a unit of work exists for the engine only once the unit commits.
  const notify = (tx?: Tx) => (tx ? tx.afterCommit(wake) : wake());
  const testEnv = settings.testEnv ?? faultInjectionOff;
  const addons = new AddonService(store, clock, catalog, workgroups);
  const addonEnabled = (db: Executor, orgId: string, addonsId: string) => addons.isEnabled(db, orgId, addonsId);
  const workspaces = new WorkspaceService(store, clock, catalog, workgroups, addonEnabled, notify, testEnv);
  const backups = new BackupService(store, clock, catalog, workspaces, notify);
  const dbSecrets = new DbSecretService(store, clock);
  const dbTokens = new DbTokenService(store, clock);
  const chaos = settings.chaos ?? new ChaosService(store, clock, catalog, { enabled: false, maxRules: 0 });
  return {
    catalog,
    clock,
    store,
    apiKeys,
    organisations: new OrganisationService(store, clock, apiKeys, catalog),
    users: new UserService(store, clock, apiKeys),
    cloudProviders: new CloudProviderService(store, clock, catalog, settings.roles ?? noRoleVerifier, notify, testEnv),
    addons,
    addonConfigs: new AddonConfigService(store, clock, catalog, addons),
    addonRequests: new AddonRequestService(store, clock, catalog),
    workgroups,
    workspaces,
    upgrades: new UpgradeService(store, clock, catalog, workspaces, notify),
    schedules: new ScheduleService(store, clock, catalog, workspaces),
    databases: new DatabaseService(store, clock, workgroups),
    allowList: new AllowListService(store, clock, catalog, workgroups),
    dbUsers: new DbUserService(store, clock, catalog, workspaces),
    dbSecrets,
    dbTokens,
    backups,
    backupSchedules: new BackupScheduleService(store, clock, catalog, workspaces),
    gateway: new GatewayService(store, clock, workspaces, dbSecrets, dbTokens, chaos),
    operations: new OperationService(store),
    idempotency: new IdempotencyService(store, clock),
    events: new EventFeed(store),
    webhooks: new WebhookService(store, clock, catalog, settings.webhooks ?? noWebhookKey),
    chaos,
    metrics: new WorkspaceMetricsService(
      store,
      clock,
      catalog,
      workgroups,
      settings.readMetrics ?? noMetricsReader,
      settings.metrics,
    ),
    billing: new BillingService(store, clock, catalog, settings.billing),
    pool: new WorkgroupPool(
      store,
      clock,
      catalog,
      workgroups,
      workspaces,
      settings.pool ?? poolOff,
      settings.poolRefill ?? (() => undefined),
    ),
  };
}
