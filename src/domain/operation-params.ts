import { Type, type Static, type TObject, type TUnsafe } from '@sinclair/typebox';
import { NodeGroupConfig } from '../schemas/cloud-provider.js';
import { updateActions } from './actions.js';

/**
 * The parameters each operation kind is stored with, declared once: the domain writes them
 * when it starts an operation, and the engine validates a claimed operation's row against
 * its kind's schema before running it (src/engine/kinds/). Unknown fields are refused, so a
 * row from another version or a hand edit fails clearly instead of being half understood.
 */
const strict = { additionalProperties: false } as const;
const Opt = Type.Optional;

/** One of a closed set of strings, as a union of literals: TypeBox's own checker knows it (StringEnum is for Ajv). */
function OneOf<const T extends readonly string[]>(values: T): TUnsafe<T[number]> {
  return Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnsafe<T[number]>;
}

/** Why the engine, not a request, started it: auto-stop, gateway, schedule, maintenance, observe. */
const started = {
  reason: Opt(Type.String({ minLength: 1, maxLength: 64 })),
  schedule_id: Opt(Type.String({ minLength: 1, maxLength: 64 })),
};

export const WorkspaceCreateParams = Type.Object({ op: Type.Literal('create') }, strict);
export const WorkspacePauseParams = Type.Object({ op: Type.Literal('pause'), ...started }, strict);
export const WorkspaceResumeParams = Type.Object({ op: Type.Literal('resume'), ...started }, strict);
export const WorkspaceUpdateParams = Type.Object(
  {
    op: Type.Literal('update'),
    /** What changes: the driver actions of this update. */
    actions: Type.Array(OneOf(updateActions), { minItems: 1, maxItems: updateActions.length }),
    /** resize: the size asked for (absent on updates stored before desired and observed size were kept apart). */
    workspace_type_name: Opt(Type.String({ minLength: 1, maxLength: 32 })),
    /** ha: whether HA was asked for (absent likewise). */
    enable_ha: Opt(Type.Boolean()),
    /** upgrade: the version to run. */
    tg_version: Opt(Type.String({ minLength: 1, maxLength: 32 })),
    /** Set when a maintenance window started the upgrade. */
    maintenance: Opt(Type.Boolean()),
    ...started,
  },
  strict,
);
export const WorkspaceRestoreParams = Type.Object(
  { op: Type.Literal('restore'), backup_id: Type.String({ minLength: 1, maxLength: 64 }) },
  strict,
);
export const WorkspaceRefreshParams = Type.Object({ op: Type.Literal('refresh') }, strict);
/** Started by the reconciler when the driver reports a running workspace's runtime gone. */
export const WorkspaceRecoverParams = Type.Object(
  { op: Type.Literal('recover'), reason: Type.String({ maxLength: 1024 }) },
  strict,
);
export const WorkspaceDeleteParams = Type.Object({ op: Type.Literal('delete') }, strict);

/** Every workspace operation's parameters, by operation. */
export const workspaceParams = {
  create: WorkspaceCreateParams,
  pause: WorkspacePauseParams,
  resume: WorkspaceResumeParams,
  update: WorkspaceUpdateParams,
  restore: WorkspaceRestoreParams,
  refresh: WorkspaceRefreshParams,
  recover: WorkspaceRecoverParams,
  delete: WorkspaceDeleteParams,
} as const satisfies Record<string, TObject>;

/** Operations that move a workspace through a transitional status. */
export type WorkspaceOperation = keyof typeof workspaceParams;
export type WorkspaceParamsOf<K extends WorkspaceOperation> = Static<(typeof workspaceParams)[K]>;
export type WorkspaceOpParams = { [K in WorkspaceOperation]: WorkspaceParamsOf<K> }[WorkspaceOperation];

export const BackupCreateParams = Type.Object(
  { workspace_id: Type.String({ minLength: 1, maxLength: 64 }), automatic: Type.Boolean() },
  strict,
);
export type BackupOpParams = Static<typeof BackupCreateParams>;

/** A deleted backup whose data the driver removes (the row is gone already). */
export const BackupDeleteParams = Type.Object(
  {
    workspace_id: Type.String({ minLength: 1, maxLength: 64 }),
    database_id: Type.String({ minLength: 1, maxLength: 64 }),
  },
  strict,
);
export type BackupDeleteOpParams = Static<typeof BackupDeleteParams>;

/** A deleted database whose graph data the workspace driver removes (the row is gone already). */
export const DatabaseDeleteParams = Type.Object({}, strict);

export const CloudProviderProvisionParams = Type.Object({ op: Type.Literal('provision') }, strict);
export const CloudProviderUpgradeParams = Type.Object(
  {
    op: Type.Literal('upgrade'),
    /** The node groups after the upgrade (already merged and checked). */
    node_group_config: Opt(NodeGroupConfig),
    /** The log types to enable. */
    cluster_enabled_log_types: Opt(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 16 })),
    /** The component versions to deploy. */
    components: Opt(Type.Array(Type.Object({ name: Type.String(), version: Type.String() }, strict), { maxItems: 64 })),
  },
  strict,
);
export type CloudProviderOpParams =
  Static<typeof CloudProviderProvisionParams> | Static<typeof CloudProviderUpgradeParams>;
export type CloudProviderOperation = CloudProviderOpParams['op'];
