import type { Migration } from 'kysely';
import * as foundation from './0001-foundation.js';
import * as workspaces from './0002-workspaces.js';
import * as networkAccess from './0004-network-access.js';
import * as byocAddons from './0005-byoc-addons.js';
import * as schedules from './0006-schedules.js';
import * as backups from './0007-backups.js';
import * as autoStopIndex from './0008-auto-stop-index.js';
import * as operationsOrgIndex from './0009-operations-org-index.js';
import * as operationsResourceIndex from './0010-operations-resource-index.js';
import * as nameKeysText from './0011-name-keys-text.js';
import * as idempotencyPerApiKey from './0012-idempotency-per-api-key.js';
import * as dbSecretsTokens from './0013-db-secrets-tokens.js';
import * as desiredObserved from './0014-desired-observed.js';
import * as events from './0015-events.js';
import * as webhooks from './0016-webhooks.js';
import * as workspaceRuntimes from './0020-workspace-runtimes.js';
import * as allowListExpiryIndex from './0030-allow-list-expiry-index.js';
import * as keyChangeNotices from './0031-key-change-notices.js';
import * as allowListEntryCounts from './0032-allow-list-entry-counts.js';
import * as allowListRanges from './0033-allow-list-ranges.js';
import * as retentionIndexes from './0034-retention-indexes.js';
import * as operationAsks from './0035-operation-asks.js';
import * as workgroupExpiry from './0036-workgroup-expiry.js';
import * as chaosRules from './0037-chaos-rules.js';
import * as organisationProfile from './0038-organisation-profile.js';
import * as users from './0039-users.js';
import * as scheduledUpgrades from './0040-scheduled-upgrades.js';
import * as billing from './0041-billing.js';
import * as workgroupPool from './0042-workgroup-pool.js';
import * as addonRequests from './0043-addon-requests.js';

/** Every migration in order; names sort in the order they must run. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-workspaces': workspaces,
  '0004-network-access': networkAccess,
  '0005-byoc-addons': byocAddons,
  '0006-schedules': schedules,
  '0007-backups': backups,
  '0008-auto-stop-index': autoStopIndex,
  '0009-operations-org-index': operationsOrgIndex,
  '0010-operations-resource-index': operationsResourceIndex,
  '0011-name-keys-text': nameKeysText,
  '0012-idempotency-per-api-key': idempotencyPerApiKey,
  '0013-db-secrets-tokens': dbSecretsTokens,
  '0014-desired-observed': desiredObserved,
  '0015-events': events,
  '0016-webhooks': webhooks,
  '0020-workspace-runtimes': workspaceRuntimes,
  '0030-allow-list-expiry-index': allowListExpiryIndex,
  '0031-key-change-notices': keyChangeNotices,
  '0032-allow-list-entry-counts': allowListEntryCounts,
  '0033-allow-list-ranges': allowListRanges,
  '0034-retention-indexes': retentionIndexes,
  '0035-operation-asks': operationAsks,
  '0036-workgroup-expiry': workgroupExpiry,
  '0037-chaos-rules': chaosRules,
  '0038-organisation-profile': organisationProfile,
  '0039-users': users,
  '0040-scheduled-upgrades': scheduledUpgrades,
  '0041-billing': billing,
  '0042-workgroup-pool': workgroupPool,
  '0043-addon-requests': addonRequests,
};
