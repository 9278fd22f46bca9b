import type { Store } from '../store/store.js';
import { listAllProviders } from '../store/repositories/cloud-providers.js';
import { toPage, type Page, type PageResult } from '../store/pagination.js';
import type { CloudProviderRecord } from '../schemas/cloud-provider.js';
import { toCloudProviderRecord } from './cloud-providers.js';
import { forbidden } from './errors.js';
import { resumeAfter } from './paging.js';
import type { Principal } from './principal.js';

const DEFAULT_PAGE = 100;

/**
 * Every organisation's cloud providers and the public ones, a page at a time, in creation
 * order: for a platform administrator (a user flag given only by `acacia admin`), 403 to
 * anyone else.
 */
export async function listEveryProvider(
  store: Store,
  p: Principal,
  page: Page,
): Promise<PageResult<CloudProviderRecord>> {
  if (!p.platformAdmin)
    throw forbidden('x-api-key', "only a platform administrator's key may list every organisation's providers");
  const limit = page.limit ?? DEFAULT_PAGE;
  const { items, nextCursor } = toPage(await listAllProviders(store.db, limit, resumeAfter(page)), limit);
  return { items: items.map(toCloudProviderRecord), ...(nextCursor ? { nextCursor } : {}) };
}
