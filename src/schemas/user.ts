import { Type, type Static } from '@sinclair/typebox';
import { Body, StringEnum, Timestamp } from './helpers.js';
import { Component } from './component.js';

/**
 * A user's roles in its organisation, as the real service names them (its access-management
 * page: Org Admin, Billing Admin, Billing Viewer, Workgroup Admin, Workspace Admin, Workspace
 * Member). The last three are granted on one workgroup or workspace.
 */
export const userRoles = [
  'org-admin',
  'billing-admin',
  'billing-viewer',
  'workgroup-admin',
  'workspace-admin',
  'workspace-member',
] as const;
export type UserRole = (typeof userRoles)[number];

/** What each scoped role is granted on; the others are the organisation's. */
export const roleScope: Partial<Record<UserRole, 'workgroup' | 'workspace'>> = {
  'workgroup-admin': 'workgroup',
  'workspace-admin': 'workspace',
  'workspace-member': 'workspace',
};

export const roleDisplayNames: Record<UserRole, string> = {
  'org-admin': 'Org Admin',
  'billing-admin': 'Billing Admin',
  'billing-viewer': 'Billing Viewer',
  'workgroup-admin': 'Workgroup Admin',
  'workspace-admin': 'Workspace Admin',
  'workspace-member': 'Workspace Member',
};

/** One grant: an organisation role (resource_id null) or a scoped role on one resource. */
export interface Grant {
  role: UserRole;
  resource_id: string | null;
}

const RoleText = Type.String({
  minLength: 1,
  maxLength: 160,
  description:
    '`org-admin`, `billing-admin`, `billing-viewer`, or `workgroup-admin:<workgroup id>`, ' +
    '`workspace-admin:<workspace id>`, `workspace-member:<workspace id>`',
});

/** The real service's OrgRole: one grant of a user. */
export const OrgRole = Component(
  'OrgRole',
  Type.Object({
    id: Type.String({ description: 'the grant as PUT /users/{userId}/roles takes it, e.g. `workspace-admin:<id>`' }),
    name: StringEnum(userRoles),
    displayName: Type.String(),
    path: Type.String({ description: '`/` for the organisation, `/workgroups/<id>` or `/workspaces/<id>`' }),
    tenantID: Type.String({ description: 'the organisation id' }),
  }),
);
export type OrgRole = Static<typeof OrgRole>;

/** The real service's OrgListUserResponse: one user of the organisation. */
export const OrgUser = Component(
  'OrgUser',
  Type.Object(
    {
      id: Type.String(),
      email: Type.Optional(Type.String()),
      username: Type.String({ description: "the email's local part; `owner` for the organisation's owner" }),
      firstName: Type.String(),
      lastName: Type.String(),
      enabled: Type.Boolean(),
      status: StringEnum(['invited', 'active'] as const),
      roles: Type.Array(Type.Unsafe<OrgRole>(Type.Ref('OrgRole'))),
      tenantID: Type.String({ description: 'the organisation id' }),
      platform_admin: Type.Boolean({ description: 'may see every organisation (given only by `acacia admin`)' }),
      created: Timestamp,
      updated: Timestamp,
      invited_at: Type.Optional(Timestamp),
      accepted_at: Type.Optional(Timestamp),
    },
    { description: 'A user of the organisation and its role grants.' },
  ),
);
export type OrgUser = Static<typeof OrgUser>;

const Email = Type.String({ minLength: 3, maxLength: 254, description: 'unique in the organisation, any case' });
const PersonName = Type.String({ maxLength: 128 });
const RoleList = Type.Array(RoleText, { maxItems: 100, uniqueItems: true });

export const InviteUserBody = Component(
  'InviteUserBody',
  Body({
    email: Email,
    firstName: Type.Optional(PersonName),
    lastName: Type.Optional(PersonName),
    roles: Type.Optional(RoleList),
  }),
);
export type InviteUserBody = Static<typeof InviteUserBody>;

export const UserInvitation = Component(
  'UserInvitation',
  Type.Object({
    user: Type.Unsafe<OrgUser>(Type.Ref('OrgUser')),
    invite_token: Type.String({ description: 'handed to the invitee; shown this once' }),
    invite_expires_at: Timestamp,
  }),
);
export type UserInvitation = Static<typeof UserInvitation>;

export const AcceptInvitationBody = Component(
  'AcceptInvitationBody',
  Body({
    token: Type.String({ minLength: 1, maxLength: 256 }),
    firstName: Type.Optional(PersonName),
    lastName: Type.Optional(PersonName),
  }),
);
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>;

/** The real service's PutOrgUsersRoles: the user's grants, replaced whole. */
export const PutOrgUsersRoles = Component('PutOrgUsersRoles', Body({ roles: RoleList }));
export type PutOrgUsersRoles = Static<typeof PutOrgUsersRoles>;

export const UpdateUserBody = Component(
  'UpdateUserBody',
  Body({
    enabled: Type.Optional(Type.Boolean()),
    firstName: Type.Optional(PersonName),
    lastName: Type.Optional(PersonName),
  }),
);
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const UserParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) });
