import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { ListQuery } from '../helpers.js';
import { ApiKeyRecord, CreateApiKeyBody, DeleteApiKeyBody } from '../api-key.js';
import { CloudProviderRecord } from '../cloud-provider.js';
import { Organization, OrgQuota, OrgRequest } from '../organisation.js';
import {
  AcceptInvitationBody,
  InviteUserBody,
  OrgUser,
  PutOrgUsersRoles,
  UpdateUserBody,
  UserInvitation,
  UserParams,
} from '../user.js';
import { endpoint } from './spec.js';

const tags = ['Organisation'] as const;
const org = `${API_PREFIX}/org` as const;
const admin = 'For org admins (an org-admin key of a user holding org-admin).';

/** The organisation, its users and their roles; paths as the real service has them (`/users` unprefixed). */
export const orgEndpoints = {
  getOrganisation: endpoint({
    method: 'GET',
    path: `${org}/self`,
    summary: "The caller's organisation",
    description:
      'Its name, display name, logo, creation, owner (`creator`), feature flags and `delinquent_since` ' +
      '(set while its account is in arrears). For every key.',
    tags,
    result: Ref(Organization),
    errors: [],
    client: 'org.show',
  }),
  updateOrganisation: endpoint({
    method: 'PUT',
    path: org,
    summary: "Change the organisation's display name or logo",
    description:
      '`orgDisplayName` (up to 128 characters) and `logoUrl` (an https URL); an empty string clears either. ' +
      "The name is not changed: `orgName` and `orgID`, if sent, must be the organisation's own. The Result " +
      `is the organisation's id. ${admin}`,
    tags,
    body: Ref(OrgRequest),
    result: Type.String({ description: "the organisation's id" }),
    errors: [403],
    message: 'Organisation updated.',
    client: 'org.update',
  }),
  getOrganisationQuota: endpoint({
    method: 'GET',
    path: `${org}/quota`,
    summary: "The tier's limits and the organisation's usage",
    description:
      'Read-write and read-only workspace counts and memory, as the quota checks count them (a running ' +
      'resize counts at the larger size), beside the backup limits and the default retention of automatic ' +
      'backups. For every key.',
    tags,
    result: Ref(OrgQuota),
    errors: [],
    client: 'org.quota',
  }),
  listOrgApiKeys: endpoint({
    method: 'GET',
    path: `${org}/api-keys`,
    summary: "List API keys (the real service's path)",
    description: `The keys of GET /apikeys, each with the user it acts for (\`user_id\`). ${admin}`,
    tags: ['API keys'],
    result: Type.Array(Ref(ApiKeyRecord)),
    errors: [403],
    client: 'org.listApiKeys',
  }),
  createOrgApiKey: endpoint({
    method: 'POST',
    path: `${org}/api-keys`,
    summary: "Create an API key (the real service's path)",
    description:
      "As POST /apikeys: the key acts for the creating key's user; `plaintext_key` is shown this once. " + admin,
    tags: ['API keys'],
    body: Ref(CreateApiKeyBody),
    result: Ref(ApiKeyRecord),
    errors: [403, 404, 409],
    oneTimeSecrets: ['plaintext_key'],
    message: 'API key created.',
    client: 'org.createApiKey',
  }),
  deleteOrgApiKey: endpoint({
    method: 'DELETE',
    path: `${org}/api-keys`,
    summary: "Revoke an API key (the real service's path)",
    description: `As DELETE /apikeys, the name in the body. ${admin}`,
    tags: ['API keys'],
    body: Ref(DeleteApiKeyBody),
    result: Ref(ApiKeyRecord),
    errors: [403, 404],
    message: 'API key revoked.',
    client: 'org.deleteApiKey',
  }),
  listUsers: endpoint({
    method: 'GET',
    path: '/users',
    summary: 'List the users of the organisation',
    description:
      'In creation order, 100 at a time unless `limit` says (X-Next-Cursor); each with its roles as OrgRole, ' +
      `invited users (\`status: invited\`) included. ${admin}`,
    tags,
    query: ListQuery,
    result: Type.Array(Ref(OrgUser)),
    errors: [403],
    paginated: true,
    client: 'users.list',
  }),
  inviteUser: endpoint({
    method: 'POST',
    path: '/users/invitations',
    summary: 'Invite a user',
    description:
      'Creates the user with the roles given and an invitation token, returned this once (kept only as its ' +
      'hash) and good for 7 days; the invitee accepts it at POST /users/invitations/accept, which gives them ' +
      `their first API key. Roles are spelt as PUT /users/{userId}/roles takes them. ${admin}`,
    tags,
    body: Ref(InviteUserBody),
    result: Ref(UserInvitation),
    errors: [403, 404, 409],
    oneTimeSecrets: ['invite_token'],
    message: 'User invited.',
    client: 'users.invite',
  }),
  acceptInvitation: endpoint({
    method: 'POST',
    path: '/users/invitations/accept',
    summary: 'Accept an invitation',
    description:
      "Without an API key: the invitation token is spent, and the Result is the new user's first API key " +
      "(`plaintext_key` shown this once). The key's role is org-admin, but it does only what the user's " +
      'roles allow.',
    tags,
    body: Ref(AcceptInvitationBody),
    result: Ref(ApiKeyRecord),
    errors: [404, 409],
    public: true,
    oneTimeSecrets: ['plaintext_key'],
    message: 'Invitation accepted.',
    client: 'users.accept',
  }),
  setUserRoles: endpoint({
    method: 'PUT',
    path: '/users/{userId}/roles',
    summary: "Replace a user's roles",
    description:
      '`org-admin`, `billing-admin`, `billing-viewer`, or `workgroup-admin:<workgroup id>`, ' +
      "`workspace-admin:<workspace id>`, `workspace-member:<workspace id>`. The user's keys act by them " +
      'from their next request. The organisation keeps an enabled org admin (else 409). The Result is the ' +
      `user. ${admin}`,
    tags,
    params: UserParams,
    body: Ref(PutOrgUsersRoles),
    result: Ref(OrgUser),
    errors: [403, 404, 409],
    message: 'Roles updated.',
    client: 'users.setRoles',
  }),
  updateUser: endpoint({
    method: 'PUT',
    path: '/users/{userId}',
    summary: 'Enable, disable or rename a user',
    description:
      "A disabled user's keys are refused (401) from their next request; enabling it again readmits them. " +
      `The organisation keeps an enabled org admin (else 409). ${admin}`,
    tags,
    params: UserParams,
    body: Ref(UpdateUserBody),
    result: Ref(OrgUser),
    errors: [403, 404, 409],
    message: 'User updated.',
    client: 'users.update',
  }),
  listEveryCloudProvider: endpoint({
    method: 'GET',
    path: '/cloud-providers/all',
    summary: "Every organisation's cloud providers",
    description:
      "The public providers and every organisation's own, in creation order, 100 at a time unless `limit` " +
      'says (X-Next-Cursor). For a platform administrator (given by `acacia admin users platform-admin`); 403 ' +
      'to anyone else.',
    tags: ['Cloud providers'],
    query: ListQuery,
    result: Type.Array(Ref(CloudProviderRecord)),
    errors: [403],
    paginated: true,
    client: 'cloudProviders.listAll',
  }),
} as const;
