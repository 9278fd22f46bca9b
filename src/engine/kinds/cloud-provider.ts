import { findProviderById } from '../../store/repositories/cloud-providers.js';
import {
  cloudProviderKind,
  completeCloudProviderOperation,
  failCloudProviderOperation,
  markProvisioning,
  type CloudProviderOperation,
} from '../../domain/cloud-provider-operations.js';
import type { HandlerDeps, OperationHandler } from './handler.js';

const ops: CloudProviderOperation[] = ['provision', 'upgrade'];

/** cloud_provider.provision and cloud_provider.upgrade: the driver works on the account, the domain records the outcome. */
export function cloudProviderHandlers({ store, driver }: HandlerDeps): OperationHandler[] {
  return ops.map((op) => ({
    kind: cloudProviderKind(op),
    run: async (operation, now) => {
      await markProvisioning(store, operation.resource_id, now);
      return driver.runCloudProviderStep(operation, await findProviderById(store.db, operation.resource_id), now);
    },
    complete: (trx, operation, step, now) => completeCloudProviderOperation(trx, store.dialect, operation, now, step.result?.provider),
    fail: (trx, operation, message, now) => failCloudProviderOperation(trx, store.dialect, operation, message, now),
  }));
}
