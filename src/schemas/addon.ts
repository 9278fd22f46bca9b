import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, StringEnum, Timestamp } from './helpers.js';
import { Component } from './component.js';

/** 64 KiB: the largest config value (DESIGN §3), checked in bytes by the domain. */
export const MAX_CONFIG_VALUE_BYTES = 64 * 1024;

/** A catalog add-on with its state in the caller's organisation. */
export const AddonRecord = Component(
  'AddonRecord',
  Type.Object({
    addons_id: Type.String(),
    unique_name: Type.String(),
    title: Type.String(),
    is_free: Type.Boolean(),
    description: Type.String(),
    installed: Type.Boolean(),
    enabled: Type.Boolean(),
    installed_addons_id: Type.Optional(Type.String({ description: 'id of the installed add-on, when installed' })),
  }),
);
export type AddonRecord = Static<typeof AddonRecord>;

/** An add-on installed for one organisation (operation 13's Result). */
export const InstalledAddonRecord = Component(
  'InstalledAddonRecord',
  Type.Object({
    id: Type.String(),
    addons_id: Type.String(),
    unique_name: Type.String(),
    title: Type.String(),
    is_free: Type.Boolean(),
    enabled: Type.Boolean(),
    org_id: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
    version_number: Type.Integer(),
  }),
);
export type InstalledAddonRecord = Static<typeof InstalledAddonRecord>;

export const AddonConfigRecord = Component(
  'AddonConfigRecord',
  Type.Object({
    id: Type.String(),
    config_name: Type.String(),
    config_value: Type.String(),
    created_at: Timestamp,
  }),
);
export type AddonConfigRecord = Static<typeof AddonConfigRecord>;

export const CreateAddonConfigBody = Component(
  'CreateAddonConfigBody',
  Body({
    config_name: Type.String({ minLength: 1, maxLength: 64 }),
    config_value: Type.String({ maxLength: MAX_CONFIG_VALUE_BYTES, description: 'at most 64 KiB in UTF-8' }),
  }),
);
export type CreateAddonConfigBody = Static<typeof CreateAddonConfigBody>;

/** `enable` is the contract's required string: exactly true or false. */
export const InstallQuery = Type.Object({
  enable: StringEnum(['true', 'false'] as const, { description: 'true installs or enables, false disables' }),
});

export const AddonParams = Type.Object({ addonsID: Id });
export const InstalledAddonParams = Type.Object({ installedAddonsID: Id });
export const AddonConfigNameParams = Type.Object({
  installedAddonsID: Id,
  configName: Type.String({ minLength: 1, maxLength: 64 }),
});
export const AddonConfigIdParams = Type.Object({ installedAddonsID: Id, configID: Id });

/** One add-on of the catalog as `GET /addons/meta` describes it. */
export const AddonMetaEntry = Type.Object({
  addons_id: Type.String(),
  unique_name: Type.String(),
  title: Type.String(),
  is_free: Type.Boolean(),
  description: Type.String(),
});

/** `GET /addons/meta`: the real service types its Result as an object. */
export const AddonsMetaRecord = Component(
  'AddonsMetaRecord',
  Type.Object(
    {
      addons: Type.Array(AddonMetaEntry, { description: 'every add-on of the catalog, in its order' }),
      max_configs_per_addon: Type.Integer({ description: 'the most configurations one installed add-on holds' }),
      max_config_value_bytes: Type.Integer({ description: 'the largest config_value, in UTF-8 bytes' }),
    },
    { description: 'What add-ons there are, and the limits of their configurations.' },
  ),
);
export type AddonsMetaRecord = Static<typeof AddonsMetaRecord>;

/** 4 KiB of message: a request is a note to the organisation's admins. */
export const MAX_ADDON_REQUEST_MESSAGE = 4096;

/** `POST /addons/request` (the real service's RequestAddonRequest). */
export const RequestAddonBody = Component(
  'RequestAddonBody',
  Body({
    addon_name: Type.String({
      minLength: 1,
      maxLength: 64,
      description: "the add-on asked for: a catalog add-on's unique_name or title, or the name of one it lacks",
    }),
    message: Type.Optional(Type.String({ maxLength: MAX_ADDON_REQUEST_MESSAGE, description: 'to the admins' })),
  }),
);
export type RequestAddonBody = Static<typeof RequestAddonBody>;

export const AddonRequestRecord = Component(
  'AddonRequestRecord',
  Type.Object(
    {
      id: Type.String(),
      org_id: Type.String(),
      addon_name: Type.String(),
      addons_id: Type.Optional(Type.String({ description: 'the catalog add-on the name matches, if any' })),
      message: Type.String(),
      requested_by: Type.String({ description: 'name of the API key that asked' }),
      created_at: Timestamp,
    },
    { description: "A member's request for an add-on, for the organisation's admins." },
  ),
);
export type AddonRequestRecord = Static<typeof AddonRequestRecord>;

/** `PUT /add-ons/{installedAddonsID}/configs/{configID}` (the real service's UpdateConfigRequest). */
export const UpdateAddonConfigBody = Component(
  'UpdateAddonConfigBody',
  Body({
    config_value: Type.String({ maxLength: MAX_CONFIG_VALUE_BYTES, description: 'at most 64 KiB in UTF-8' }),
  }),
);
export type UpdateAddonConfigBody = Static<typeof UpdateAddonConfigBody>;
