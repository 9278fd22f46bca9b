import { backupCreate } from './backup-create.js';
import { backupDelete } from './backup-delete.js';
import { cloudProviderProvision } from './cloud-provider-provision.js';
import { cloudProviderUpgrade } from './cloud-provider-upgrade.js';
import { databaseDelete } from './database-delete.js';
import type { AnyKind, KindDeps } from './kind.js';
import { workspaceCreate } from './workspace-create.js';
import { workspaceDelete } from './workspace-delete.js';
import { workspacePause } from './workspace-pause.js';
import { workspaceRecover } from './workspace-recover.js';
import { workspaceRefresh } from './workspace-refresh.js';
import { workspaceRestore } from './workspace-restore.js';
import { workspaceResume } from './workspace-resume.js';
import { workspaceUpdate } from './workspace-update.js';

/** Every operation kind the engine runs, one module each. */
const kinds = [
  workspaceCreate,
  workspacePause,
  workspaceResume,
  workspaceUpdate,
  workspaceRestore,
  workspaceRefresh,
  workspaceRecover,
  workspaceDelete,
  backupCreate,
  backupDelete,
  databaseDelete,
  cloudProviderProvision,
  cloudProviderUpgrade,
];

export function allKinds(deps: KindDeps): Map<string, AnyKind> {
  return new Map(kinds.map((make) => make(deps) as AnyKind).map((k) => [k.kind, k]));
}

export type { AnyKind, KindDeps, KindStepContext, OperationKind } from './kind.js';
