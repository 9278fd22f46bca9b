import { newId } from './ids.js';
import type { Executor, Store, Tx } from '../store/store.js';
import * as requestsRepo from '../store/repositories/addon-requests.js';
import type { AddonRequest } from '../store/repositories/addon-requests.js';
import { lockOrganisation } from '../store/repositories/organisations.js';
import type { Page, PageResult } from '../store/pagination.js';
import type { AddonRequestRecord, RequestAddonBody } from '../schemas/addon.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import { requireName } from './names.js';
import { resumeAfter } from './paging.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount } from './quotas.js';
import { iso } from './time.js';

/**
 * The most requests an organisation keeps: they are notes to its admins, not a queue, and
 * the bound keeps one key from filling the store.
 */
export const MAX_ADDON_REQUESTS = 1000;

export function addonRequestRecord(r: AddonRequest): AddonRequestRecord {
  return {
    id: r.id,
    org_id: r.org_id,
    addon_name: r.addon_name,
    ...(r.addons_id !== null ? { addons_id: r.addons_id } : {}),
    message: r.message,
    requested_by: r.requested_by,
    created_at: iso(r.created_at),
  };
}

/** The record of a request in an event, read in the unit that wrote it. */
export async function addonRequestOf(db: Executor, id: string): Promise<AddonRequestRecord | undefined> {
  const row = await requestsRepo.findAddonRequestById(db, id);
  return row && addonRequestRecord(row);
}

/** Requests for add-ons: any key of the organisation asks, its admins read them. */
export class AddonRequestService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
  ) {}

  /**
   * Records the request and its event (`addon_request.created`); the Result is its id. Any
   * role may ask: asking changes nothing but the list the admins read.
   */
  async request(p: Principal, body: RequestAddonBody, tx?: Tx): Promise<string> {
    const name = requireName('addon_name', body.addon_name);
    const wanted = name.toLowerCase();
    // A name of the catalog, by unique_name or title, is linked to that add-on.
    const entry = this.catalog.addons.find(
      (a) => a.unique_name.toLowerCase() === wanted || a.title.toLowerCase() === wanted,
    );
    const row: AddonRequest = {
      id: newId(),
      org_id: p.orgId,
      addon_name: name,
      addons_id: entry?.addons_id ?? null,
      message: (body.message ?? '').normalize('NFC'),
      requested_by: p.keyName,
      created_at: this.clock.now(),
    };
    await this.store.unit(tx, async (trx) => {
      // The lock makes the count and the insert one step for concurrent requests.
      await lockOrganisation(trx.db, p.orgId);
      checkCount(
        'addon_name',
        await requestsRepo.countAddonRequests(trx.db, p.orgId),
        MAX_ADDON_REQUESTS,
        'add-on requests per organisation',
      );
      await requestsRepo.insertAddonRequest(trx, row);
      trx.offerRecord('addon_request', row.id, addonRequestRecord(row));
    });
    return row.id;
  }

  /** The organisation's requests, oldest first; for org-admin keys. */
  async list(p: Principal, page: Page = {}): Promise<PageResult<AddonRequestRecord>> {
    authorize(p, 'org:admin');
    const { items, nextCursor } = await requestsRepo.listAddonRequests(
      this.store.db,
      p.orgId,
      page.limit,
      resumeAfter(page),
    );
    return { items: items.map(addonRequestRecord), ...(nextCursor !== undefined ? { nextCursor } : {}) };
  }
}
