/**
 * Table types as Kysely sees them. Timestamps are epoch milliseconds (bigint), booleans are
 * 0/1 integers and lists are JSON text, identically on SQLite and PostgreSQL, so one
 * mapper per repository serves both stores.
 */
import type { Generated } from 'kysely';
import type { WorkspaceColumns } from './models/workspace.js';
export interface OrganisationsTable {
  id: string;
  name: string;
  name_key: string;
  tier: string;
  created_at: number;
  display_name: string | null;
  logo_url: string | null;
  /** JSON array of `{name, enabled}`. */
  feature_flags: string | null;
  delinquent_since: number | null;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  key_name: string;
  description: string | null;
  role: string;
  workgroup_ids: string;
  workspace_ids: string;
  key_hash: string;
  redacted_key: string;
  created_by: string | null;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  /** Added by 0039: the user the key acts for (null only on a store before it). */
  user_id: string | null;
}

export interface UsersTable {
  id: string;
  org_id: string;
  email: string | null;
  /** The email in lower case: unique per organisation. */
  email_key: string | null;
  first_name: string;
  last_name: string;
  enabled: number;
  is_owner: number;
  platform_admin: number;
  /** JSON array of `{role, resource_id}`. */
  roles: string;
  /** SHA-256 of the invitation token, until it is accepted. */
  invite_hash: string | null;
  invited_at: number | null;
  invite_expires_at: number | null;
  accepted_at: number | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface CloudProvidersTable {
  id: string;
  short_id: string;
  org_id: string | null;
  name: string;
  type: string;
  platform: string;
  region: string;
  status: string;
  created_by: string | null;
  version: string | null;
  created_at: number;
  updated_at: number;
  version_number: number;
  // Added by 0005: null on public providers and until the API or provisioner fills them.
  name_key: string | null;
  api_tokens: string | null;
  availability_zones: string | null;
  cluster_enabled_log_types: string | null;
  component_versions: string | null;
  cluster_id: string | null;
  endpoint_service_name: string | null;
  last_error: string | null;
  node_group_config: string | null;
  options: string | null;
  role_arn: string | null;
  role_external_id: string | null;
  security_group_id: string | null;
  vpc_id: string | null;
  subnet_id: string | null;
  vpc_owned_by_tg: number | null;
  work_dir: string | null;
  x_test_env: string | null;
}

export interface WorkgroupsTable {
  id: string;
  org_id: string;
  name: string;
  name_key: string;
  cloud_provider_id: string;
  platform: string;
  region: string;
  enable_allow_list: number;
  enable_application_log: number;
  encryption_method: string | null;
  shared_storage: number;
  creator: string | null;
  created_at: number;
  updated_at: number;
  version_number: number;
  /** Entries of its allow list, kept by triggers (migration 0032). */
  allow_list_entries: Generated<number>;
  /** When the engine removes it and everything in it; null = never (migration 0036). */
  expires_at: number | null;
  /** When its removal started; null while it lives. */
  expired_at: number | null;
}

export interface IdempotencyKeysTable {
  api_key_id: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: number;
}

export interface DatabasesTable {
  id: string;
  org_id: string;
  workgroup_id: string;
  name: string;
  name_key: string;
  tg_version: string;
  rw_workspace_id: string | null;
  created_at: number;
  updated_at: number;
  version_number: number;
}

/** Declared with the workspace model (src/store/models/workspace.ts). */
export type WorkspacesTable = WorkspaceColumns;

export interface OperationsTable {
  id: string;
  org_id: string;
  resource_type: string;
  resource_id: string;
  kind: string;
  state: string;
  attempt: number;
  max_attempts: number;
  run_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  params: string;
  progress: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface AllowListEntriesTable {
  id: string;
  org_id: string;
  workgroup_id: string;
  cidr: string;
  note: string | null;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
  /** The range's family (4 or 6) and first and last address, bytes in network order (0033). */
  range_family: number | null;
  range_first: Buffer | null;
  range_last: Buffer | null;
}

export interface DbUsersTable {
  id: string;
  org_id: string;
  workspace_id: string;
  username: string;
  username_key: string;
  password_hash: string;
  created_at: number;
  updated_at: number;
}

export interface DbSecretsTable {
  id: string;
  org_id: string;
  workspace_id: string;
  db_user_id: string;
  alias: string;
  secret_hash: string;
  masked: string;
  created_at: number;
}

export interface DbTokensTable {
  id: string;
  org_id: string;
  workspace_id: string;
  db_user_id: string;
  secret_id: string | null;
  token_hash: string;
  graph: string | null;
  password_stamp: string;
  created_at: number;
  expires_at: number;
}

export interface InstalledAddonsTable {
  id: string;
  org_id: string;
  addons_id: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  version_number: number;
}

export interface AddonConfigsTable {
  id: string;
  org_id: string;
  installed_addon_id: string;
  config_name: string;
  config_value: string;
  created_at: number;
}

export interface AddonRequestsTable {
  id: string;
  org_id: string;
  addon_name: string;
  addons_id: string | null;
  message: string;
  requested_by: string;
  created_at: number;
}

export interface BackupsTable {
  id: string;
  org_id: string;
  workspace_id: string;
  database_id: string;
  is_automatic: number;
  status: string;
  tag: string | null;
  size_bytes: number;
  tg_version: string;
  error: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface BackupSchedulesTable {
  id: string;
  org_id: string;
  workspace_id: string;
  schedule: string;
  max_backup_files: number;
  max_reserved_days: number;
  max_retry: number;
  pause: number;
  next_run_at: number | null;
  last_run_at: number | null;
  last_run_outcome: string | null;
  last_run_reason: string | null;
  last_backup_id: string | null;
  created_at: number;
  updated_at: number;
  version_number: number;
}

export interface ManualClockTable {
  id: number;
  now: number;
}

export interface SchedulesTable {
  id: string;
  org_id: string;
  workspace_id: string;
  repeat: string;
  date: string | null;
  repeat_on: string | null;
  time: string;
  timezone: string;
  action: string;
  workspace_type_name: string | null;
  next_run_at: number | null;
  created_at: number;
  updated_at: number;
  version_number: number;
}

export interface ScheduleRunsTable {
  id: string;
  schedule_id: string;
  occurrence_at: number;
  fired_at: number;
  outcome: string;
  reason: string | null;
  operation_id: string | null;
}

/** One change to a resource (see src/schemas/event.ts); `data` is the record's JSON. */
export interface EventsTable {
  id: Generated<number>;
  org_id: string;
  resource_kind: string;
  resource_id: string;
  workgroup_id: string | null;
  workspace_id: string | null;
  type: string;
  time: number;
  data: string;
}

/** An organisation's webhooks (0016); event_types is ",type,type," or null for every type. */
export interface WebhooksTable {
  id: string;
  org_id: string;
  url: string;
  event_types: string | null;
  created_by: string | null;
  created_at: number;
}

/** One event for one webhook (0016). */
export interface WebhookDeliveriesTable {
  webhook_id: string;
  event_id: number;
  org_id: string;
  event_type: string;
  state: string;
  attempts: Generated<number>;
  next_attempt_at: number | null;
  lease_owner: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
}

/** The local driver's data-plane processes: who runs each, where, and until when (0020). */
export interface WorkspaceRuntimesTable {
  workspace_id: string;
  owner: string;
  owner_host: string;
  owner_pid: number;
  pid: number;
  host: string;
  port: number;
  shape: string;
  started_at: number;
  lease_expires_at: number;
}

export interface ChaosRulesTable {
  id: string;
  org_id: string;
  endpoint: string | null;
  method: string | null;
  path: string | null;
  platform: string | null;
  region: string | null;
  error_rate_ppm: number | null;
  status: number | null;
  error_type: string | null;
  message: string | null;
  latency_min_ms: number | null;
  latency_max_ms: number | null;
  created_at: number;
  expires_at: number;
  hits: Generated<number>;
}

/** An organisation's credit (0041); money in integer millionths of the currency unit. */
export interface BillingAccountsTable {
  org_id: string;
  balance_micros: number;
  granted_micros: number;
  charged_micros: number;
  updated_at: number;
}

/** A grant (positive) or an hour's charge of one workspace (negative) (0041). */
export interface CreditLedgerTable {
  id: string;
  org_id: string;
  kind: string;
  amount_micros: number;
  workspace_id: string | null;
  period_start: number | null;
  compute_micros: number | null;
  addon_micros: number | null;
  storage_micros: number | null;
  running_ms: number | null;
  note: string | null;
  created_at: number;
}

/** The hours metered, claimed once each (0041). */
export interface MeteringPeriodsTable {
  period_start: number;
  metered_at: number;
  owner: string;
}

/** Each workspace as the meter last saw it (0041); addons is a JSON array of priced add-on names. */
export interface MeteringStateTable {
  workspace_id: string;
  org_id: string;
  running: number;
  size: string;
  enable_ha: number;
  platform: string;
  region: string;
  addons: string;
  storage_bytes: number;
}

/** Each hand-over of a pooled workgroup to an organisation (0042); counted against its hourly cap. */
export interface PoolAcquisitionsTable {
  id: string;
  org_id: string;
  workgroup_id: string;
  acquired_at: number;
}

export interface DB {
  organisations: OrganisationsTable;
  billing_accounts: BillingAccountsTable;
  credit_ledger: CreditLedgerTable;
  metering_periods: MeteringPeriodsTable;
  metering_state: MeteringStateTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
  cloud_providers: CloudProvidersTable;
  workgroups: WorkgroupsTable;
  idempotency_keys: IdempotencyKeysTable;
  databases: DatabasesTable;
  workspaces: WorkspacesTable;
  operations: OperationsTable;
  manual_clock: ManualClockTable;
  schedules: SchedulesTable;
  schedule_runs: ScheduleRunsTable;
  allow_list_entries: AllowListEntriesTable;
  db_users: DbUsersTable;
  db_secrets: DbSecretsTable;
  db_tokens: DbTokensTable;
  installed_addons: InstalledAddonsTable;
  addon_configs: AddonConfigsTable;
  addon_requests: AddonRequestsTable;
  backups: BackupsTable;
  backup_schedules: BackupSchedulesTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  workspace_runtimes: WorkspaceRuntimesTable;
  chaos_rules: ChaosRulesTable;
  pool_acquisitions: PoolAcquisitionsTable;
}
