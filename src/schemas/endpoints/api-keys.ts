import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { ApiKeyParams, ApiKeyRecord, CreateApiKeyBody, DeleteApiKeyBody } from '../api-key.js';
import { endpoint } from './spec.js';

const tags = ['API keys'] as const;
const all = `${API_PREFIX}/apikeys` as const;
const admin = 'For org-admin keys.';

export const apiKeyEndpoints = {
  createApiKey: endpoint({
    method: 'POST',
    path: all,
    summary: 'Create an API key',
    description:
      'The Result carries the key itself (`plaintext_key`) this once. As the real service documents it, ' +
      '`{description, life_time_in_seconds}` is enough: the name defaults to `key-<8 characters>` and the ' +
      `role to the creating key's. A scoped key's \`workgroup_ids\` or \`workspace_ids\` name the ` +
      `organisation's own: any other id is a 404 naming its place in the list. ${admin}`,
    tags,
    body: Ref(CreateApiKeyBody),
    result: Ref(ApiKeyRecord),
    errors: [403, 404, 409],
    oneTimeSecrets: ['plaintext_key'],
    message: 'API key created.',
    client: 'apiKeys.create',
  }),
  listApiKeys: endpoint({
    method: 'GET',
    path: all,
    summary: 'List API keys',
    description: `The keys not revoked, expired ones included; never the keys themselves. ${admin}`,
    tags,
    result: Type.Array(Ref(ApiKeyRecord)),
    errors: [403],
    client: 'apiKeys.list',
  }),
  getCurrentApiKey: endpoint({
    method: 'GET',
    path: `${all}/current`,
    summary: "The calling key's own record",
    description:
      'Its role, scope and expiry, for any role (a console decides ' +
      'which actions to offer by it); never the key itself.',
    tags,
    result: Ref(ApiKeyRecord),
    errors: [],
    client: 'apiKeys.current',
  }),
  deleteApiKey: endpoint({
    method: 'DELETE',
    path: all,
    summary: 'Revoke an API key (name in the body)',
    description: `DELETE with a JSON body \`{key_name}\`, as the real service documents it. ${admin}`,
    tags,
    body: Ref(DeleteApiKeyBody),
    result: Ref(ApiKeyRecord),
    errors: [403, 404],
    message: 'API key revoked.',
    client: 'apiKeys.delete',
  }),
  revokeApiKey: endpoint({
    method: 'DELETE',
    path: `${all}/{key_name}`,
    summary: 'Revoke an API key',
    description: `The key answers 401 from the next request on; its name may be used again. ${admin}`,
    tags,
    params: ApiKeyParams,
    result: Ref(ApiKeyRecord),
    errors: [403, 404],
    message: 'API key revoked.',
    client: 'apiKeys.revoke',
  }),
} as const;
