import type { AddonRefInput } from '../schemas/workspace.js';
import type { Static } from '@sinclair/typebox';
import type { Catalog } from './catalog.js';
import type { Problems } from './errors.js';

type AddonRef = Static<typeof AddonRefInput>;

/**
 * The most one add-on's `enable_configuration` may take, as JSON (UTF-8 bytes). It is stored
 * with the workspace and shown in every record of it (the workspace's, its workgroup's twice,
 * its database's) and in each event about it, so it must stay small; a byte count cannot be
 * said in JSON Schema, hence this rule.
 */
export const ENABLE_CONFIGURATION_MAX_BYTES = 16 * 1024;

/** Add-on refs as a request gives them, under the field that names them in errors. */
export interface AddonRefList {
  field: string;
  refs: readonly AddonRef[];
}

/**
 * The rules of add-on refs that need no store: each names an add-on of the catalog, once
 * across all the lists of one request (so a workspace holds at most one ref per catalog
 * add-on), with an `enable_configuration` of at most ENABLE_CONFIGURATION_MAX_BYTES. A ref
 * with `enable: false` is stored and shown as well, so it is bounded alike.
 */
export function checkAddonRefs(problems: Problems, catalog: Catalog, lists: readonly AddonRefList[]): void {
  const seen = new Map<string, string>();
  for (const { field, refs } of lists) {
    for (const [i, ref] of refs.entries()) {
      const at = `${field}[${i}]`;
      if (!catalog.addons.some((c) => c.addons_id === ref.addons_id))
        problems.add(`${at}.addons_id`, `no add-on "${ref.addons_id}" in the catalog`);
      else if (seen.has(ref.addons_id))
        problems.add(`${at}.addons_id`, `add-on ${ref.addons_id} is already given at ${seen.get(ref.addons_id)}`);
      else seen.set(ref.addons_id, at);
      if (ref.enable_configuration !== undefined) {
        const bytes = Buffer.byteLength(JSON.stringify(ref.enable_configuration), 'utf8');
        if (bytes > ENABLE_CONFIGURATION_MAX_BYTES)
          problems.add(
            `${at}.enable_configuration`,
            `must be at most ${ENABLE_CONFIGURATION_MAX_BYTES} bytes as JSON (${bytes} given)`,
          );
      }
    }
  }
}
