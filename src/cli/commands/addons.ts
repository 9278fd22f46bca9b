import type { Command } from 'commander';
import { apiCommand, apiGroup } from '../api-command.js';
import type { View } from '../output.js';

/** The catalog's records and installed add-ons alike: an installed one's id is what `configs` takes. */
const view: View = {
  id: (a) => a.id ?? a.addons_id,
  columns: [
    ['ADDON_ID', (a) => a.addons_id],
    ['INSTALLED_ID', (a) => a.id ?? a.installed_addons_id],
    ['NAME', (a) => a.unique_name],
    ['TITLE', (a) => a.title],
    ['ENABLED', (a) => (a.enabled ? 'yes' : 'no')],
  ],
};

const configView: View = {
  id: (c) => c.id,
  columns: [
    ['CONFIG_ID', (c) => c.id],
    ['NAME', (c) => c.config_name],
    ['VALUE', (c) => c.config_value],
    ['CREATED_AT', (c) => c.created_at],
  ],
};

const requestView: View = {
  id: (r) => r.id,
  columns: [
    ['REQUEST_ID', (r) => r.id],
    ['ADDON', (r) => r.addon_name],
    ['BY', (r) => r.requested_by],
    ['CREATED_AT', (r) => r.created_at],
    ['MESSAGE', (r) => r.message],
  ],
};

export function addonCommands(program: Command): void {
  const addons = apiGroup(
    program,
    'addons',
    'Add-ons of the organisation and their configurations',
    [
      { verb: 'list', endpoint: 'listAddons', aliases: ['ls'], description: 'The add-on catalog' },
      { verb: 'installed', endpoint: 'listInstalledAddons' },
      { verb: 'get-installed', endpoint: 'getInstalledAddon', args: ['installedAddonsID'] },
      {
        verb: 'install',
        endpoint: 'installAddon',
        args: ['addonsID'],
        query: { enable: 'true' },
        description: 'Install or enable an add-on (--enable false disables it)',
      },
      { verb: 'workspaces', endpoint: 'listAddonWorkspaces', args: ['addonsID'] },
    ],
    view,
  ).alias('addon');
  apiCommand(addons, { verb: 'meta', endpoint: 'getAddonsMeta' });
  apiCommand(addons, { verb: 'request', endpoint: 'requestAddon' });
  apiCommand(addons, { verb: 'requests', endpoint: 'listAddonRequests', view: requestView });
  const configs = addons.command('configs').description('Configurations of an installed add-on');
  apiCommand(configs, {
    verb: 'list',
    endpoint: 'listAddonConfigs',
    args: ['installedAddonsID', 'configName'],
    view: configView,
  });
  apiCommand(configs, { verb: 'create', endpoint: 'createAddonConfig', args: ['installedAddonsID'], view: configView });
  apiCommand(configs, {
    verb: 'update',
    endpoint: 'updateAddonConfig',
    args: ['installedAddonsID', 'configID'],
    view: configView,
  });
  apiCommand(configs, { verb: 'delete', endpoint: 'deleteAddonConfig', args: ['installedAddonsID', 'configID'] });
}
