import { compareVersions, type Catalog, type TgVersion } from './catalog.js';
import type { Problems } from './errors.js';
import type { Principal } from './principal.js';

/**
 * The rules of the version catalog: which versions an organisation sees, which a new
 * workspace may run and which a running one may move to. Creation, PUT workspace's
 * `desired_tg_version`, POST …/upgrade and GET /workspaces/meta all ask these, so one rule
 * holds everywhere.
 */

type Org = Pick<Principal, 'orgId' | 'orgName'>;

export const versionImage = (name: string) => `tigergraph/tigergraph:${name}`;

/** A version without `orgs` is for everyone; a custom build only for the organisations it names (id or name). */
export function visibleTo(v: TgVersion, org: Org): boolean {
  return v.orgs.length === 0 || v.orgs.includes(org.orgId) || v.orgs.includes(org.orgName);
}

export function pastEndOfLife(v: TgVersion, now: number): boolean {
  return v.end_of_life !== undefined && Date.parse(v.end_of_life) <= now;
}

/** The versions the organisation sees, oldest first. */
export function visibleVersions(catalog: Catalog, org: Org): TgVersion[] {
  return catalog.tg_versions.filter((v) => visibleTo(v, org)).sort((a, b) => compareVersions(a.name, b.name));
}

/** Versions a new workspace may run, oldest first. */
export function creatableVersions(catalog: Catalog, org: Org, now: number): TgVersion[] {
  return visibleVersions(catalog, org).filter((v) => v.allow_create && !pastEndOfLife(v, now));
}

/**
 * Versions a workspace may be upgraded to, oldest first; with `from`, only those newer than
 * it that do not list it as incompatible.
 */
export function upgradeTargets(catalog: Catalog, org: Org, now: number, from?: string): TgVersion[] {
  return visibleVersions(catalog, org).filter(
    (v) =>
      v.allow_upgrade &&
      !pastEndOfLife(v, now) &&
      (from === undefined || (compareVersions(v.name, from) > 0 && !v.incompatible_upgrades_from.includes(from))),
  );
}

/** The newest of `versions` outside the preview channel, else the newest of them. */
function newestSettled(versions: readonly TgVersion[]): string | undefined {
  return (versions.filter((v) => v.channel !== 'preview').at(-1) ?? versions.at(-1))?.name;
}

/** The version a new database runs when none is asked for. */
export function defaultCreateVersion(catalog: Catalog, org: Org, now: number): string | undefined {
  return newestSettled(creatableVersions(catalog, org, now));
}

/** The version an upgrade moves to when none is asked for. */
export function defaultUpgradeTarget(catalog: Catalog, org: Org, now: number, from: string): string | undefined {
  return newestSettled(upgradeTargets(catalog, org, now, from));
}

const names = (versions: readonly TgVersion[]) => versions.map((v) => v.name).join(', ') || 'none';

function known(catalog: Catalog, org: Org, name: string): TgVersion | undefined {
  return catalog.tg_versions.find((v) => v.name === name && visibleTo(v, org));
}

/** Adds why a new workspace may not run `name`, if it may not. */
export function checkCreateVersion(
  problems: Problems,
  field: string,
  catalog: Catalog,
  org: Org,
  name: string,
  now: number,
): void {
  const v = known(catalog, org, name);
  if (!v) problems.add(field, `must be one of ${names(creatableVersions(catalog, org, now))}`);
  else if (pastEndOfLife(v, now)) problems.add(field, `version ${name} reached its end of life on ${v.end_of_life}`);
  else if (!v.allow_create) problems.add(field, `version ${name} is not offered for new workspaces`);
}

/** Adds why a workspace running `from` may not move to `to`, if it may not. */
export function checkUpgradeTarget(
  problems: Problems,
  field: string,
  catalog: Catalog,
  org: Org,
  from: string,
  to: string,
  now: number,
): void {
  const refusal = upgradeRefusal(catalog, org, from, to, now);
  if (refusal !== undefined) problems.add(field, refusal);
}

/** Why a workspace running `from` may not move to `to`; undefined when it may. */
export function upgradeRefusal(catalog: Catalog, org: Org, from: string, to: string, now: number): string | undefined {
  const v = known(catalog, org, to);
  if (!v) return `must be one of ${names(upgradeTargets(catalog, org, now, from))}`;
  if (compareVersions(to, from) < 0) return `must not be older than the running version ${from}`;
  if (pastEndOfLife(v, now)) return `version ${to} reached its end of life on ${v.end_of_life}`;
  if (!v.allow_upgrade) return `version ${to} is not offered as an upgrade`;
  if (v.incompatible_upgrades_from.includes(from)) return `version ${to} cannot be upgraded to in place from ${from}`;
  return undefined;
}
