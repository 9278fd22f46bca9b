import type { AllowListEntry } from '../store/repositories/allow-list.js';
import { inRange, parseCaller, parseRange } from '../addresses/cidr.js';

export const MAX_TEMPORARY_MS = 7 * 24 * 3_600_000;

export interface AddressCheck {
  allowed: boolean;
  /** The entry the address falls in, if any (also while the list is disabled). */
  matched?: AllowListEntry;
}

/**
 * The one rule the API (`is_current_ip_allowed`, `…/allow_list/current`) and the gateway
 * share: a disabled list allows everyone; an enabled one allows addresses inside an entry
 * in force at `now`. An entry stops applying at its `expires_at` instant.
 */
export function checkAddress(
  enabled: boolean,
  entries: readonly AllowListEntry[],
  ip: string,
  now: number,
): AddressCheck {
  const caller = parseCaller(ip);
  const matched =
    caller && entries.find((e) => (e.expires_at === null || e.expires_at > now) && inRange(caller, parseRange(e.cidr)));
  return { allowed: !enabled || matched !== undefined, ...(matched ? { matched } : {}) };
}

/** Why an `expires_at` is not acceptable at `now`, or undefined. */
export function expiresProblem(expiresAt: number, now: number): string | undefined {
  if (Number.isNaN(expiresAt)) return 'must be an RFC 3339 timestamp';
  if (expiresAt <= now) return 'must be in the future';
  if (expiresAt > now + MAX_TEMPORARY_MS) return 'must be at most 7 days ahead';
  return undefined;
}
