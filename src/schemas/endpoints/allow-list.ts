import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { AllowListEntryBody, AllowListEntryParams, AllowListEntryRecord, CurrentIpRecord } from '../allow-list.js';
import { WorkgroupParams } from '../workgroup.js';
import { endpoint } from './spec.js';

const tags = ['Allow list'] as const;
const all = `${API_PREFIX}/workgroups/{workgroupID}/allow_list` as const;

const toggle = <V extends 'enable' | 'disable'>(verb: V, summary: string) =>
  endpoint({
    method: 'PUT',
    path: `${all}/${verb}` as const,
    summary,
    description:
      "The Result is the workgroup's id (a string, as the real service documents it); the workgroup's " +
      'version changes only when the setting does. The gateway applies the change to its next request. ' +
      'With If-Match, applied only to that version_number.',
    tags,
    params: WorkgroupParams,
    result: Type.String({ description: 'the workgroup id' }),
    errors: [403, 404, 412],
    ifMatch: true,
    message: `Allow list ${verb}d.`,
    client: `allowList.${verb}` as const,
  });

export const allowListEndpoints = {
  addAllowedIp: endpoint({
    method: 'POST',
    path: all,
    summary: 'Add an allowed IP address or range',
    description:
      'Operation 11. `cidr` is an IPv4 or IPv6 address or CIDR range, stored normalised (a bare address ' +
      'becomes /32 or /128); a range with host bits set is refused with the network meant. The same range ' +
      'twice is 409. `expires_at` (extension) grants temporary access, at most 7 days ahead.',
    tags,
    params: WorkgroupParams,
    body: Ref(AllowListEntryBody),
    result: Ref(AllowListEntryRecord),
    errorResult: Type.String(),
    errors: [403, 404, 409],
    message: 'Allow list entry added.',
    client: 'allowList.create',
  }),
  listAllowedIps: endpoint({
    method: 'GET',
    path: all,
    summary: 'List the allowed IP addresses and ranges',
    description: 'The entries in force (an expired entry is not listed).',
    tags,
    params: WorkgroupParams,
    result: Type.Array(Ref(AllowListEntryRecord)),
    errors: [404],
    client: 'allowList.list',
  }),
  checkCurrentIp: endpoint({
    method: 'GET',
    path: `${all}/current`,
    summary: "Whether the caller's address is allowed",
    description:
      "The caller's address (`CurrentIP`) and whether the allow list lets it reach the workgroup's " +
      'workspaces (`IsAllowed`): always true while the list is not enforced.',
    tags,
    params: WorkgroupParams,
    result: Ref(CurrentIpRecord),
    errors: [404],
    client: 'allowList.current',
  }),
  enableAllowList: toggle('enable', 'Enforce the allow list'),
  disableAllowList: toggle('disable', 'Stop enforcing the allow list'),
  updateAllowedIp: endpoint({
    method: 'PUT',
    path: `${all}/{id}`,
    summary: 'Update an allowed IP address or range',
    description:
      'Operation 12. `cidr` is required; an omitted `note` or `expires_at` keeps its value (`null` removes ' +
      'the expiry).',
    tags,
    params: AllowListEntryParams,
    body: Ref(AllowListEntryBody),
    result: Ref(AllowListEntryRecord),
    errorResult: Type.String(),
    errors: [403, 404, 409],
    message: 'Allow list entry updated.',
    client: 'allowList.update',
  }),
  deleteAllowedIp: endpoint({
    method: 'DELETE',
    path: `${all}/{id}`,
    summary: 'Remove an allowed IP address or range',
    description: "The Result is the deleted entry's id (a string, as the real service documents it).",
    tags,
    params: AllowListEntryParams,
    result: Type.String({ description: 'the deleted entry id' }),
    errors: [403, 404],
    message: 'Allow list entry removed.',
    client: 'allowList.delete',
  }),
} as const;
