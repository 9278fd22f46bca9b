import { Type, type Static } from '@sinclair/typebox';

/**
 * Where a snapshot is saved (GET) and loaded (PUT). Outside the endpoint table: its bodies are
 * gzip'd JSON lines, not JSON (docs/snapshots.md).
 */
export const SNAPSHOT_PATH = '/_admin/snapshot';

/** What a snapshot holds, as a verified load reports it. */
export const SnapshotSummary = Type.Object({
  created_at: Type.String({ description: 'when it was saved, RFC 3339' }),
  schema: Type.String({ description: 'the migration level of the store it was saved from' }),
  store: Type.String({ description: 'the kind of store it was saved from' }),
  rows: Type.Integer({ minimum: 0 }),
  files: Type.Integer({ minimum: 0 }),
});
export type SnapshotSummary = Static<typeof SnapshotSummary>;
