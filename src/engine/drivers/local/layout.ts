import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the local driver keeps a database's data, under the data directory:
 *
 *   graphs/<database_id>/graph.db                    the graph (read-write workspaces serve it)
 *   graphs/<database_id>/snapshots/<snapshot>.db     what a read-only workspace serves
 *   graphs/<database_id>/backups/<backup_id>.db      backups
 *
 * Removing a database removes its folder. Ids are the store's (UUIDs), checked before they
 * become file names.
 */
export class Layout {
  constructor(private readonly dataDir: string) {}

  databaseDir(databaseId: string): string {
    return path.join(this.dataDir, 'graphs', safe(databaseId));
  }

  graphFile(databaseId: string): string {
    return path.join(this.databaseDir(databaseId), 'graph.db');
  }

  snapshotFile(databaseId: string, snapshotId: string): string {
    return path.join(this.databaseDir(databaseId), 'snapshots', `${safe(snapshotId)}.db`);
  }

  backupFile(databaseId: string, backupId: string): string {
    return path.join(this.databaseDir(databaseId), 'backups', `${safe(backupId)}.db`);
  }

  /** The folders copies are written to (backups, snapshots), of every database there is. */
  copyFolders(): string[] {
    let databases: string[];
    try {
      databases = fs.readdirSync(path.join(this.dataDir, 'graphs'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return databases.flatMap((db) =>
      ['backups', 'snapshots'].map((folder) => path.join(this.dataDir, 'graphs', db, folder)),
    );
  }

  /** Makes the folder a file goes in. */
  prepare(file: string): string {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    return file;
  }
}

/** A read-only workspace's snapshot name: the workspace and the operation that took it. */
export const snapshotName = (workspaceId: string, operationId: string): string => `${workspaceId}.${operationId}`;

function safe(id: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id) || id.includes('..'))
    throw new Error(`${JSON.stringify(id)} cannot name a file`);
  return id;
}
