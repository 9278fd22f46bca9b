import type { NodeGroup, NodeGroupConfig } from '../store/repositories/cloud-providers.js';
import type { UpgradeCloudProviderBody } from '../schemas/cloud-provider.js';
import { nodeGroupKeys } from '../schemas/cloud-provider.js';
import { platforms } from '../schemas/catalog.js';
import type { Catalog, Platform } from './catalog.js';
import type { Problems } from './errors.js';
import { checkTestEnv, type TestEnvCheck } from './test-env.js';

/** `arn:aws:iam::<12-digit account>:role/<optional path/>name` (IAM's allowed name characters). */
const AWS_ROLE_ARN = /^arn:aws:iam::(\d{12}):role\/((?:[\w+=,.@-]+\/)*([\w+=,.@-]{1,64}))$/;
const SEMVER = /^\d+\.\d+\.\d+$/;

export interface RoleArn {
  account: string;
  /** The role's name, without its path. */
  roleName: string;
}

export function parseAwsRoleArn(arn: string): RoleArn | undefined {
  const m = AWS_ROLE_ARN.exec(arn);
  return m ? { account: m[1]!, roleName: m[3]! } : undefined;
}

/** The role's name for messages: the ARN's last segment on aws, the whole text elsewhere. */
export function roleName(arn: string): string {
  return parseAwsRoleArn(arn)?.roleName ?? arn;
}

export const isSemver = (v: string) => SEMVER.test(v);

/** What registering (or validating) a provider must get right, and where each value sits in the body. */
export interface Registration {
  platform?: string | undefined;
  region?: string | undefined;
  role_arn?: string | undefined;
  account_id?: string | undefined;
}

/** Adds a problem for every registration rule broken (DESIGN §6 "Cloud provider"). */
export function checkRegistration(
  problems: Problems,
  catalog: Catalog,
  input: Registration,
  fields: { account_id: string },
): void {
  const { platform, region, role_arn: arn, account_id: account } = input;
  if (platform === undefined) problems.add('platform', `is required; one of ${platforms.join(', ')}`);
  if (region === undefined) problems.add('region', 'is required');
  else if (platform !== undefined) {
    const known = catalog.regions[platform as Platform] ?? [];
    if (!known.includes(region))
      problems.add('region', `"${region}" is not a ${platform} region; known: ${known.join(', ')}`);
  }
  if (arn === undefined) {
    problems.add('role_arn', 'is required: the role the service assumes in the account');
    return;
  }
  if (platform !== 'aws') return;
  const parsed = parseAwsRoleArn(arn);
  if (!parsed) problems.add('role_arn', 'must be arn:aws:iam::<12-digit account id>:role/<path/name>');
  else if (account !== undefined && account !== parsed.account) {
    problems.add(fields.account_id, `must equal the account of role_arn (${parsed.account})`);
  }
}

export function checkProviderTestEnv(problems: Problems, text: string | undefined, testEnv: TestEnvCheck): void {
  checkTestEnv(problems, text, testEnv, 'cloud_provider');
}

/**
 * The node groups after an upgrade: each group's given fields replace the current ones,
 * and every resulting group must keep 0 ≤ min_size ≤ max_size.
 */
export function mergeNodeGroups(
  problems: Problems,
  current: NodeGroupConfig | null,
  input: UpgradeCloudProviderBody['node_group_config'],
): NodeGroupConfig {
  const merged: NodeGroupConfig = { ...(current ?? {}) };
  if (!input) return merged;
  for (const key of nodeGroupKeys) {
    const given = input[key];
    if (!given) continue;
    const base: NodeGroup = current?.[key] ?? { min_size: 0, max_size: 0, overprovisioning_factor: 0 };
    const group: NodeGroup = {
      min_size: given.min_size ?? base.min_size,
      max_size: given.max_size ?? base.max_size,
      overprovisioning_factor: given.overprovisioning_factor ?? base.overprovisioning_factor,
    };
    if (group.min_size > group.max_size) {
      problems.add(
        `node_group_config.${key}.min_size`,
        `must not exceed max_size (${group.min_size} > ${group.max_size})`,
      );
    }
    merged[key] = group;
  }
  if (input.prefetch_image_list !== undefined) merged.prefetch_image_list = input.prefetch_image_list;
  return merged;
}

/** Component versions are served as one string: `name=version` pairs, comma-separated, by name. */
export function renderComponentVersions(components: Record<string, string>): string {
  return Object.keys(components)
    .sort()
    .map((name) => `${name}=${components[name]}`)
    .join(',');
}
