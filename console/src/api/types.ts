// Every record the console shows is declared once, by the server's TypeBox schemas; these
// are type-only imports, erased from the bundle.
export type { AddonConfigRecord, AddonRecord, InstalledAddonRecord } from '../../../src/schemas/addon.js';
export type { AllowListEntryRecord, CurrentIpRecord } from '../../../src/schemas/allow-list.js';
export type { AllowListEntryBody } from '../../../src/schemas/allow-list.js';
export type { ApiKeyRecord, CreateApiKeyBody } from '../../../src/schemas/api-key.js';
export type {
  BackupRecord,
  BackupScheduleBody,
  BackupScheduleRecord,
  CreateBackupBody,
} from '../../../src/schemas/backup.js';
export type { CloudProviderRecord, CreateCloudProviderBody } from '../../../src/schemas/cloud-provider.js';
export type { CreateAddonConfigBody } from '../../../src/schemas/addon.js';
export type { DbUserBody, DbUserRecord } from '../../../src/schemas/db-user.js';
export type { ErrorDetail, ErrorEnvelope, SuccessEnvelope } from '../../../src/schemas/envelope.js';
export type { MetaRecord } from '../../../src/schemas/meta.js';
export type { OrgQuota, Organization } from '../../../src/schemas/organisation.js';
export type { OrgUser } from '../../../src/schemas/user.js';
export type { OperationRecord } from '../../../src/schemas/operation.js';
export type { ScheduleBody, ScheduleRecord } from '../../../src/schemas/schedule.js';
export type { CreateWorkgroupBody, UpdateWorkgroupBody, WorkgroupRecord } from '../../../src/schemas/workgroup.js';
export type { CreateWorkspaceBody, UpdateWorkspaceBody, WorkspaceRecord } from '../../../src/schemas/workspace.js';
export type { Role } from '../../../src/schemas/api-key.js';
export type { Action } from '../../../src/schemas/api-key.js';
