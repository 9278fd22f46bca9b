import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

/** `-q` of a new key prints the key itself: the one value of it that is never shown again. */
const view: View = {
  id: (k) => k.plaintext_key ?? k.key_name,
  columns: [
    ['NAME', (k) => k.key_name],
    ['ROLE', (k) => k.role],
    ['KEY', (k) => k.redacted_key],
    ['EXPIRES_AT', (k) => k.expires_at],
    ['DESCRIPTION', (k) => k.description],
  ],
};

export function apiKeyCommands(program: Command): void {
  apiGroup(
    program,
    'apikeys',
    "The organisation's API keys (for org-admin keys)",
    [
      { verb: 'list', endpoint: 'listApiKeys', aliases: ['ls'] },
      { verb: 'current', endpoint: 'getCurrentApiKey' },
      { verb: 'create', endpoint: 'createApiKey' },
      { verb: 'revoke', endpoint: 'revokeApiKey', args: ['key_name'], aliases: ['delete', 'rm'] },
    ],
    view,
  ).alias('apikey');
}
