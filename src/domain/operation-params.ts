import { Type, type Static } from '@sinclair/typebox';
import { NodeGroupConfig } from '../schemas/cloud-provider.js';

/**
 * The parameters the backup, database and cloud provider operation kinds are stored with,
 * declared once: the domain writes them when it starts an operation, and the engine validates
 * a claimed operation's row against its kind's schema before running it (src/engine/kinds/).
 * Unknown fields are refused, so a row from another version or a hand edit fails clearly
 * instead of being half understood. A workspace operation kind declares its own with the rest
 * of it (src/domain/operation-kinds/).
 */
const strict = { additionalProperties: false } as const;
const Opt = Type.Optional;

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
