import { DATABASE_DELETE_KIND } from '../../domain/database-operations.js';
import { DatabaseDeleteParams } from '../../domain/operation-params.js';
import { stepContext, type KindDeps, type OperationKind } from './kind.js';

/**
 * database.delete: a database was deleted and the workspace driver removes its graph data.
 * The row is gone already, so there is nothing to record either way; a failure stays
 * visible on the operation.
 */
export const databaseDelete = ({ drivers }: KindDeps): OperationKind<typeof DatabaseDeleteParams> => ({
  kind: DATABASE_DELETE_KIND,
  params: DatabaseDeleteParams,
  run: (op, ctx) => drivers.workspace.removeDatabase({ databaseId: op.resource_id }, stepContext(op, ctx)),
  complete: async () => undefined,
  fail: async () => undefined,
});
