import type { SelectQueryBuilder } from 'kysely';
import type { DB } from './schema.js';

/** How many rows the query's table and filters match: what a count limit is checked against. */
export async function countRows<TB extends keyof DB>(query: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
