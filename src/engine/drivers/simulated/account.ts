import { createHash } from 'node:crypto';
import { roleName } from '../../../domain/cloud-provider-rules.js';
import {
  done,
  type AccountDriver,
  type AccountObserved,
  type AccountSpec,
  type RoleCheckAnswer,
  type RoleCheckSpec,
  type StepContext,
} from '../driver.js';
import { accountSeconds, stillWorking } from './timing.js';

/** Node groups a fresh simulated cluster starts with. */
export const defaultNodeGroups = {
  ng_16: { min_size: 0, max_size: 4, overprovisioning_factor: 0 },
  ng_32: { min_size: 0, max_size: 4, overprovisioning_factor: 0 },
  ng_48: { min_size: 0, max_size: 2, overprovisioning_factor: 0 },
  ng_64: { min_size: 0, max_size: 2, overprovisioning_factor: 0 },
  ng_system: { min_size: 1, max_size: 3, overprovisioning_factor: 0 },
  prefetch_image_list: [] as string[],
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

/** The infrastructure the simulated provisioner reports for an account (deterministic per provider). */
export function simulatedInfrastructure(spec: AccountSpec): AccountObserved {
  const az = zones(spec.platform, spec.region);
  return {
    vpcId: `vpc-${hex(spec.providerId, 'vpc', 17)}`,
    subnetIds: az.map((z) => `subnet-${hex(spec.providerId, z, 17)}`),
    securityGroupId: `sg-${hex(spec.providerId, 'sg', 17)}`,
    clusterId: `acacia-${spec.shortId}`,
    availabilityZones: az,
    nodeGroups: defaultNodeGroups,
    componentVersions: defaultComponents,
    ...(spec.secureConnection
      ? { endpointServiceName: `com.amazonaws.vpce.${spec.region}.vpce-svc-${hex(spec.providerId, 'endpoint', 17)}` }
      : {}),
  };
}

/**
 * Simulated customer accounts: provisioning reports deterministic infrastructure; an upgrade
 * deploys what it was asked (the engine records it); a role can be assumed unless its name
 * contains "deny".
 */
export class SimulatedAccountDriver implements AccountDriver {
  constructor(private readonly speed: number) {}

  async provision(spec: AccountSpec, ctx: StepContext) {
    return stillWorking(accountSeconds.provision, ctx, this.speed) ?? done(simulatedInfrastructure(spec));
  }

  async upgrade(_spec: AccountSpec, ctx: StepContext) {
    return stillWorking(accountSeconds.upgrade, ctx, this.speed) ?? done({});
  }

  async validate(check: RoleCheckSpec): Promise<RoleCheckAnswer> {
    const name = roleName(check.roleArn);
    if (/deny/i.test(name))
      return { ok: false, reason: `role ${name} cannot be assumed: its trust policy does not name the service` };
    return { ok: true };
  }
}
