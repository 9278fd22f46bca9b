import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import {
  AddonConfigIdParams,
  AddonConfigNameParams,
  AddonConfigRecord,
  AddonParams,
  AddonRecord,
  CreateAddonConfigBody,
  InstallQuery,
  InstalledAddonParams,
  InstalledAddonRecord,
} from '../addon.js';
import { WorkspaceRecord } from '../workspace.js';
import { endpoint } from './spec.js';

const tags = ['Add-ons'] as const;

/** Operations 13–17 keep the contract's own path segments: addons, add-ons and installed-addons. */
export const addonEndpoints = {
  listAddons: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/addons`,
    summary: 'The add-on catalog',
    description: 'Every add-on, with whether the organisation installed and enabled it.',
    tags,
    result: Type.Array(Ref(AddonRecord)),
    errors: [],
    client: 'addons.catalog',
  }),
  installAddon: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/addons/{addonsID}/install`,
    summary: 'Install, enable or disable an add-on',
    description:
      'Operation 13. `enable=true` installs (or enables) the add-on for the organisation, `enable=false` ' +
      'disables it (409 while workspaces have it enabled). For org-admin keys.',
    tags,
    params: AddonParams,
    query: InstallQuery,
    result: Ref(InstalledAddonRecord),
    errors: [403, 404, 409],
    message: 'Add-on installed.',
    client: 'addons.install',
  }),
  listAddonWorkspaces: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/addons/{addonsID}/workspaces`,
    summary: 'Workspaces with the add-on enabled',
    description: 'Operation 14.',
    tags,
    params: AddonParams,
    result: Type.Array(Ref(WorkspaceRecord)),
    errors: [404],
    client: 'addons.workspaces',
  }),
  listInstalledAddons: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/installed-addons`,
    summary: "The organisation's installed add-ons",
    description: 'Every add-on the organisation installed, enabled or not.',
    tags,
    result: Type.Array(Ref(InstalledAddonRecord)),
    errors: [],
    client: 'addons.installed',
  }),
  createAddonConfig: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/add-ons/{installedAddonsID}/configs`,
    summary: 'Create an add-on configuration',
    description: 'Operation 15. Several configurations may share a name. The Result is the new config id.',
    tags,
    params: InstalledAddonParams,
    body: Ref(CreateAddonConfigBody),
    result: Type.String({ description: 'the new configuration id' }),
    errors: [403, 404],
    message: 'Configuration created.',
    client: 'addons.createConfig',
  }),
  listAddonConfigs: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/installed-addons/{installedAddonsID}/configs/{configName}`,
    summary: 'Add-on configurations of one name',
    description: 'Operation 16. Names are case-sensitive; an unknown name lists nothing.',
    tags,
    params: AddonConfigNameParams,
    result: Type.Array(Ref(AddonConfigRecord)),
    errors: [404],
    client: 'addons.listConfigs',
  }),
  deleteAddonConfig: endpoint({
    method: 'DELETE',
    path: `${API_PREFIX}/add-ons/{installedAddonsID}/configs/{configID}`,
    summary: 'Delete an add-on configuration',
    description: 'Operation 17. The Result is true.',
    tags,
    params: AddonConfigIdParams,
    result: Type.Boolean(),
    errors: [403, 404],
    message: 'Configuration deleted.',
    client: 'addons.deleteConfig',
  }),
} as const;
