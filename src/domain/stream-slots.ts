import { AppError } from './errors.js';
import type { Principal } from './principal.js';

export interface StreamLimits {
  /** Open streams per API key; 0 = no cap. */
  perKey: number;
  /** Open streams per organisation; 0 = no cap. */
  perOrganisation: number;
}

/**
 * Counts the open event streams of this process per API key and per organisation, so that one
 * key (or one organisation's keys) cannot take every connection the listener has. A slot is
 * checked and taken in one synchronous step: concurrent opens cannot overshoot.
 */
export class StreamSlots {
  private readonly byKey = new Map<string, number>();
  private readonly byOrg = new Map<string, number>();

  constructor(private readonly limits: StreamLimits) {}

  /**
   * Takes a slot for the caller's key and organisation, or throws 429 (Quota-Exceed) naming
   * the limit reached. Returns the release, which frees the slot once however often called.
   */
  take(p: Principal): () => void {
    const { perKey, perOrganisation } = this.limits;
    const ofKey = this.byKey.get(p.keyId) ?? 0;
    const ofOrg = this.byOrg.get(p.orgId) ?? 0;
    if (perKey > 0 && ofKey >= perKey)
      throw refused(`this API key has ${ofKey} event streams open, the most one key may have; close one first`);
    if (perOrganisation > 0 && ofOrg >= perOrganisation)
      throw refused(
        `the organisation has ${ofOrg} event streams open, the most one organisation may have; close one first`,
      );
    this.byKey.set(p.keyId, ofKey + 1);
    this.byOrg.set(p.orgId, ofOrg + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      decrement(this.byKey, p.keyId);
      decrement(this.byOrg, p.orgId);
    };
  }
}

const refused = (reason: string) => new AppError('rate-limited', { field: 'x-api-key', reason });

function decrement(counts: Map<string, number>, id: string): void {
  const n = (counts.get(id) ?? 0) - 1;
  if (n > 0) counts.set(id, n);
  else counts.delete(id);
}
