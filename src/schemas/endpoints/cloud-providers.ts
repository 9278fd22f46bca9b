import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import {
  CloudProviderParams,
  CloudProviderRecord,
  CreateCloudProviderBody,
  UpdateCloudProviderBody,
  UpgradeCloudProviderBody,
  ValidateCloudProviderBody,
} from '../cloud-provider.js';
import { endpoint } from './spec.js';

const tags = ['Cloud providers'] as const;
const all = `${API_PREFIX}/cloud-providers` as const;
const one = `${all}/{cloudProviderID}` as const;
const byoc = 'Bring-your-own-cloud needs an org-admin key of an enterprise organisation (else 403 API-Disabled).';

export const cloudProviderEndpoints = {
  createCloudProvider: endpoint({
    method: 'POST',
    path: all,
    summary: 'Register a cloud account (BYOC)',
    description:
      'Operation 18. Registers a customer-owned account the service deploys into through the cross-account ' +
      `role \`role_arn\`; provisioning runs on: Pending, Provisioning, then Active or Failed. ${byoc}`,
    tags,
    body: Ref(CreateCloudProviderBody),
    result: Ref(CloudProviderRecord),
    errors: [403, 409],
    follow: 'cloud-provider',
    message: 'Cloud provider registered.',
    client: 'cloudProviders.create',
  }),
  validateCloudProvider: endpoint({
    method: 'POST',
    path: `${all}/validate`,
    summary: 'Check a BYOC registration',
    description: `Operation 19. Checks the registration and whether the role can be assumed; creates nothing. ${byoc}`,
    tags,
    body: Ref(ValidateCloudProviderBody),
    result: Type.String({ description: 'what was checked' }),
    errors: [403],
    client: 'cloudProviders.validate',
  }),
  listCloudProviders: endpoint({
    method: 'GET',
    path: all,
    summary: 'List cloud providers',
    description: "The public providers (one per platform and region) and the organisation's own.",
    tags,
    result: Type.Array(Ref(CloudProviderRecord)),
    errors: [],
    client: 'cloudProviders.list',
  }),
  listPublicCloudProviders: endpoint({
    method: 'GET',
    path: `${all}/public`,
    summary: 'List the public cloud providers',
    description: 'The service-owned providers only: one per platform and region of the catalog, each Active.',
    tags,
    result: Type.Array(Ref(CloudProviderRecord)),
    errors: [],
    client: 'cloudProviders.listPublic',
  }),
  getCloudProvider: endpoint({
    method: 'GET',
    path: one,
    summary: 'Get a cloud provider',
    description: 'ETag carries its version_number.',
    tags,
    params: CloudProviderParams,
    result: Ref(CloudProviderRecord),
    errors: [404],
    etag: true,
    client: 'cloudProviders.get',
  }),
  updateCloudProvider: endpoint({
    method: 'PUT',
    path: one,
    summary: 'Rename a cloud provider or record its version',
    description: `Operation 20. With If-Match, applied only to that version_number. ${byoc}`,
    tags,
    params: CloudProviderParams,
    body: Ref(UpdateCloudProviderBody),
    result: Ref(CloudProviderRecord),
    errors: [403, 404, 409, 412],
    etag: true,
    ifMatch: true,
    message: 'Cloud provider updated.',
    client: 'cloudProviders.update',
  }),
  upgradeCloudProvider: endpoint({
    method: 'PUT',
    path: `${one}/upgrade`,
    summary: 'Upgrade components and node groups',
    description:
      'Operation 21. Upgrades the components deployed in the account and merges `node_group_config` group by ' +
      `group; the provider is Upgrading, then Active. The Result is the upgrade's operation id. ${byoc}`,
    tags,
    params: CloudProviderParams,
    body: Ref(UpgradeCloudProviderBody),
    result: Type.String({ description: 'the id of the upgrade operation' }),
    errors: [403, 404, 409, 412],
    ifMatch: true,
    follow: 'operation',
    message: 'Upgrade started.',
    client: 'cloudProviders.upgrade',
  }),
  deleteCloudProvider: endpoint({
    method: 'DELETE',
    path: one,
    summary: 'Delete a private cloud provider',
    description: `Refused (409) while workgroups use it or while it is Pending, Provisioning or Upgrading. ${byoc}`,
    tags,
    params: CloudProviderParams,
    result: Ref(CloudProviderRecord),
    errors: [403, 404, 409, 412],
    ifMatch: true,
    message: 'Cloud provider deleted.',
    client: 'cloudProviders.delete',
  }),
} as const;
