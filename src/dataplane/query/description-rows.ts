import type { GraphStore } from '../graph-store.js';

/** Query descriptions are schema objects of this kind, named `<graph>.<query>` (names hold no dot). */
export const DESCRIPTION_KIND = 'query_description';
export const descriptionKey = (graph: string, query: string): string => `${graph}.${query}`;

/** Forgets a dropped query's descriptions; run inside the drop's transaction. */
export function forgetDescriptions(store: GraphStore, graph: string, query: string): void {
  store.db
    .prepare('DELETE FROM schema_objects WHERE kind = ? AND name = ?')
    .run(DESCRIPTION_KIND, descriptionKey(graph, query));
}
