import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, Nullable, Timestamp } from './helpers.js';
import { Component } from './component.js';

export const AllowListEntryRecord = Component(
  'AllowListEntryRecord',
  Type.Object({
    id: Type.String(),
    cidr: Type.String({ description: 'normalised network: a single address is /32 (IPv4) or /128 (IPv6)' }),
    note: Type.Optional(Type.String()),
    expires_at: Type.Optional(Timestamp),
    created_at: Timestamp,
  }),
);
export type AllowListEntryRecord = Static<typeof AllowListEntryRecord>;

/**
 * Operations 11 and 12: the allow list entry as a request. `id` is assigned by the service (a
 * create ignores it; an update needs it to be the path's). `expires_at` is an extension:
 * temporary access, at most 7 days ahead; null removes it.
 */
export const AllowListEntryBody = Component(
  'AllowListEntryBody',
  Body({
    id: Type.Optional(Type.String({ maxLength: 64 })),
    cidr: Type.String({ minLength: 1, maxLength: 64, description: 'an IPv4 or IPv6 address or CIDR range' }),
    note: Type.Optional(Type.String({ maxLength: 256 })),
    expires_at: Type.Optional(
      Nullable(
        Type.String({
          format: 'date-time',
          maxLength: 64,
          description: 'RFC 3339; the entry stops applying at that instant',
        }),
      ),
    ),
  }),
);
export type AllowListEntryBody = Static<typeof AllowListEntryBody>;

/** Whether the caller's address passes the workgroup's allow list (what `is_current_ip_allowed` says). */
export const CurrentIpRecord = Component(
  'CurrentIpRecord',
  Type.Object({
    IsAllowed: Type.Boolean({ description: "whether the caller's address passes (the real service's name)" }),
    CurrentIP: Type.String({ description: "the caller's address (the real service's name)" }),
    ip: Type.String({ description: 'the same as CurrentIP' }),
    allowed: Type.Boolean({ description: 'the same as IsAllowed' }),
    enable_allow_list: Type.Boolean(),
    matched_entry_id: Type.Optional(Type.String({ description: 'the entry the address falls in' })),
  }),
);
export type CurrentIpRecord = Static<typeof CurrentIpRecord>;

export const AllowListEntryParams = Type.Object({ workgroupID: Id, id: Id });
