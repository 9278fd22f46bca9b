import { createHash } from 'node:crypto';
import type { CloudProviderRow, NodeGroupConfig } from '../store/repositories/cloud-providers.js';
import type { ProvisionedInfrastructure, RoleCheck } from '../domain/cloud-provider-operations.js';
import { roleName } from '../domain/cloud-provider-rules.js';
import { parseTestEnv } from '../domain/test-env.js';

/** Node groups a fresh simulated cluster starts with. */
export const defaultNodeGroups: NodeGroupConfig = {
  ng_16: { min_size: 0, max_size: 4, overprovisioning_factor: 0 },
  ng_32: { min_size: 0, max_size: 4, overprovisioning_factor: 0 },
  ng_48: { min_size: 0, max_size: 2, overprovisioning_factor: 0 },
  ng_64: { min_size: 0, max_size: 2, overprovisioning_factor: 0 },
  ng_system: { min_size: 1, max_size: 3, overprovisioning_factor: 0 },
  prefetch_image_list: [],
};

/** Components a fresh simulated cluster runs. */
export const defaultComponents: Record<string, string> = { agent: '1.4.0', kubernetes: '1.30', operator: '1.2.0' };

/** Hex derived from the provider id, so a re-run step produces the same identifiers. */
function hex(providerId: string, label: string, length: number): string {
  return createHash('sha256').update(`${providerId}/${label}`).digest('hex').slice(0, length);
}

function zones(platform: string, region: string): string[] {
  if (platform === 'aws') return ['a', 'b', 'c'].map((z) => `${region}${z}`);
  if (platform === 'gcp') return ['a', 'b', 'c'].map((z) => `${region}-${z}`);
  return ['1', '2', '3'].map((z) => `${region}-${z}`);
}

/** The infrastructure the simulated provisioner reports for a provider (deterministic per provider). */
export function simulatedInfrastructure(p: CloudProviderRow): ProvisionedInfrastructure {
  const az = zones(p.platform, p.region);
  return {
    vpc_id: `vpc-${hex(p.id, 'vpc', 17)}`,
    subnet_id: az.map((z) => `subnet-${hex(p.id, z, 17)}`),
    security_group_id: `sg-${hex(p.id, 'sg', 17)}`,
    cluster_id: `acacia-${p.short_id}`,
    availability_zones: az,
    node_group_config: defaultNodeGroups,
    component_versions: defaultComponents,
    ...(p.options?.secure_connection ? { endpoint_service_name: `com.amazonaws.vpce.${p.region}.vpce-svc-${hex(p.id, 'endpoint', 17)}` } : {}),
  };
}

/** The simulated account trusts the service unless told otherwise (fail:validate, or a role named *deny*). */
export function simulatedRoleCheck(check: RoleCheck): { ok: true } | { ok: false; reason: string } {
  const name = roleName(check.role_arn);
  if (parseTestEnv(check.x_test_env).fail.has('validate')) return { ok: false, reason: `role ${name} cannot be assumed (x_test_env fail:validate)` };
  if (/deny/i.test(name)) return { ok: false, reason: `role ${name} cannot be assumed: its trust policy does not name the service` };
  return { ok: true };
}
