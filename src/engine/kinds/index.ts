import { backupCreate } from './backup-create.js';
import { backupDelete } from './backup-delete.js';
import { cloudProviderProvision } from './cloud-provider-provision.js';
import { cloudProviderUpgrade } from './cloud-provider-upgrade.js';
import { databaseDelete } from './database-delete.js';
import type { AnyKind, KindDeps } from './kind.js';
import { workspaceRunners } from './workspace-runner.js';

/**
 * Every operation kind the engine runs: the workspace's, from their declarations
 * (src/domain/operation-kinds/), and the others, one module each.
 */
const kinds = [backupCreate, backupDelete, databaseDelete, cloudProviderProvision, cloudProviderUpgrade];

export function allKinds(deps: KindDeps): Map<string, AnyKind> {
  const all = [...workspaceRunners(deps), ...kinds.map((make) => make(deps))] as AnyKind[];
  return new Map(all.map((k) => [k.kind, k]));
}

export type { AnyKind, KindDeps, KindStepContext, OperationKind } from './kind.js';
