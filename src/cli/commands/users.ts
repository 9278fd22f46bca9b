import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

/** `-q` of an invitation prints its token, and of an accepted one the key: values never shown again. */
const view: View = {
  id: (u) => u.invite_token ?? u.plaintext_key ?? u.id,
  columns: [
    ['ID', (u) => u.id],
    ['EMAIL', (u) => u.email],
    ['NAME', (u) => [u.firstName, u.lastName].filter(Boolean).join(' ')],
    ['STATUS', (u) => (u.enabled === false ? 'disabled' : u.status)],
    ['ROLES', (u) => (Array.isArray(u.roles) ? u.roles.map((r: { id: string }) => r.id).join(',') : undefined)],
  ],
};

export function userCommands(program: Command): void {
  apiGroup(
    program,
    'users',
    "The organisation's users and their roles (for org admins; docs/users-and-roles.md)",
    [
      { verb: 'list', endpoint: 'listUsers', aliases: ['ls'] },
      { verb: 'invite', endpoint: 'inviteUser', bodyArgs: ['email'] },
      { verb: 'accept', endpoint: 'acceptInvitation', bodyArgs: ['token'] },
      { verb: 'set-roles', endpoint: 'setUserRoles', args: ['userId'] },
      { verb: 'update', endpoint: 'updateUser', args: ['userId'] },
    ],
    view,
  ).alias('user');
}

export function orgCommands(program: Command): void {
  apiGroup(program, 'org', "The caller's organisation: its record, display name and logo, and quota usage", [
    { verb: 'show', endpoint: 'getOrganisation', aliases: ['get'] },
    { verb: 'update', endpoint: 'updateOrganisation' },
    { verb: 'quota', endpoint: 'getOrganisationQuota' },
  ]).alias('organisation');
}
