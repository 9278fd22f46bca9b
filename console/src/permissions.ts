import type { Action, ApiKeyRecord } from './api/types.js';
import { allows, billingGrantAllows, billingKeyAllows, type Target } from '../../src/schemas/access.js';

export type { Target };

/**
 * Whether the key may do this, by the rule the server enforces (src/schemas/access.ts, which
 * src/domain/permissions.ts applies too). The console only hides what would be refused; the
 * server still decides.
 */
export function can(
  key: Pick<ApiKeyRecord, 'role' | 'workgroup_ids' | 'workspace_ids' | 'user_grants'>,
  action: Action,
  target: Target = {},
): boolean {
  const scope = { role: key.role, workgroupIds: key.workgroup_ids, workspaceIds: key.workspace_ids };
  return allows(scope, key.user_grants ?? [], action, target);
}

/** Whether the key may read the organisation's billing (credit and standing), as the server decides. */
export function canReadBilling(key: Pick<ApiKeyRecord, 'role' | 'user_grants'>): boolean {
  return billingKeyAllows(key.role, 'read') && billingGrantAllows(key.user_grants ?? [], 'read');
}
