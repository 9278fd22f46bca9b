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
