import { addonEndpoints } from './addons.js';
import { allowListEndpoints } from './allow-list.js';
import { apiKeyEndpoints } from './api-keys.js';
import { chaosEndpoints } from './chaos.js';
import { operationEndpoints } from './operations.js';
import { backupEndpoints } from './backups.js';
import { billingEndpoints } from './billing.js';
import { cloudProviderEndpoints } from './cloud-providers.js';
import { databaseEndpoints } from './databases.js';
import { eventEndpoints } from './events.js';
import { graphEndpoints } from './graph.js';
import { dbUserEndpoints } from './db-users.js';
import { metricsEndpoints } from './metrics.js';
import { operabilityEndpoints } from './operability.js';
import { orgEndpoints } from './org.js';
import { scheduleEndpoints } from './schedules.js';
import { workgroupEndpoints } from './workgroups.js';
import { webhookEndpoints } from './webhooks.js';
import { workspaceEndpoints } from './workspaces.js';
import { upgradeEndpoints } from './upgrades.js';

export type { EndpointSpec, ErrorStatus, Follow, HttpMethod } from './spec.js';

/**
 * Every endpoint of the API, by operationId: the one source of the routes (src/http), the
 * OpenAPI document and the typed client (src/client).
 */
export const apiEndpoints = {
  ...workgroupEndpoints,
  ...workspaceEndpoints,
  ...upgradeEndpoints,
  ...databaseEndpoints,
  ...scheduleEndpoints,
  ...allowListEndpoints,
  ...dbUserEndpoints,
  ...graphEndpoints,
  ...backupEndpoints,
  ...operationEndpoints,
  ...eventEndpoints,
  ...webhookEndpoints,
  ...cloudProviderEndpoints,
  ...addonEndpoints,
  ...apiKeyEndpoints,
  ...metricsEndpoints,
  ...billingEndpoints,
  ...orgEndpoints,
  ...operabilityEndpoints,
  ...chaosEndpoints,
} as const;

export type ApiEndpoints = typeof apiEndpoints;
export type EndpointId = keyof ApiEndpoints;

/** Tags in the order the reference shows them, with what each covers. */
export const endpointTags: ReadonlyArray<{ name: string; description: string }> = [
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
  { name: 'Metrics', description: "Workspaces' figures: Prometheus text, and a workgroup's summary." },
  { name: 'Billing', description: 'Prices, metered usage and the credit it is charged to.' },
  { name: 'Organisation', description: 'The organisation, its quota, and its users and their roles.' },
  { name: 'Health', description: 'Liveness and readiness, without an API key.' },
  {
    name: 'Testing',
    description: 'The manual clock (ACACIA_CLOCK=manual) and chaos rules (ACACIA_FAULT_INJECTION=on).',
  },
];
