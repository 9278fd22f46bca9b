import { addonOperations } from './addons.js';
import { allowListOperations } from './allow-list.js';
import { apiKeyOperations } from './api-keys.js';
import { asyncOperations } from './async-operations.js';
import { backupOperations } from './backups.js';
import { cloudProviderOperations } from './cloud-providers.js';
import { databaseOperations } from './databases.js';
import { eventOperations } from './events.js';
import { dbUserOperations } from './db-users.js';
import { operabilityOperations } from './operability.js';
import { scheduleOperations } from './schedules.js';
import { workgroupOperations } from './workgroups.js';
import { webhookOperations } from './webhooks.js';
import { workspaceOperations } from './workspaces.js';

export type { ErrorStatus, Follow, HttpMethod, OperationSpec } from './spec.js';

/**
 * Every operation of the API, by operationId: the one source of the routes (src/http), the
 * OpenAPI document and the typed client (src/client).
 */
export const apiOperations = {
  ...workgroupOperations,
  ...workspaceOperations,
  ...databaseOperations,
  ...scheduleOperations,
  ...allowListOperations,
  ...dbUserOperations,
  ...backupOperations,
  ...asyncOperations,
  ...eventOperations,
  ...webhookOperations,
  ...cloudProviderOperations,
  ...addonOperations,
  ...apiKeyOperations,
  ...operabilityOperations,
} as const;

export type ApiOperations = typeof apiOperations;
export type OperationId = keyof ApiOperations;

/** Tags in the order the reference shows them, with what each covers. */
export const operationTags: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'Workgroups', description: 'A cloud provider and region holding databases, workspaces and an allow list.' },
  { name: 'Workspaces', description: 'Compute attached to a database: create, resize, pause, resume, delete.' },
  { name: 'Databases', description: 'The databases of a workgroup and the workspaces attached to them.' },
  { name: 'Schedules', description: 'Timed resizes, pauses and resumes of a workspace.' },
  { name: 'Backups', description: 'Manual and scheduled backups of read-write workspaces, and restores.' },
  { name: 'Allow list', description: 'The addresses that may reach the workgroup on the data-plane gateway.' },
  { name: 'Database users', description: 'The users the gateway admits to a workspace.' },
  { name: 'Add-ons', description: 'Add-ons installed for the organisation and their configurations.' },
  { name: 'Cloud providers', description: 'Public providers and bring-your-own-cloud accounts.' },
  { name: 'Operations', description: 'Asynchronous changes and how they ended.' },
  { name: 'Events', description: 'Every change to a resource, as a stream or in pages.' },
  { name: 'Webhooks', description: "Endpoints the organisation's events are POSTed to, and their deliveries." },
  { name: 'API keys', description: "The organisation's API keys." },
  { name: 'Health', description: 'Liveness and readiness, without an API key.' },
  { name: 'Testing', description: 'The manual clock of a server started with ACACIA_CLOCK=manual.' },
];
