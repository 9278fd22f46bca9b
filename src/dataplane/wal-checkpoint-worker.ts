/**
 * The thread of BackgroundCheckpoints: a connection of its own to the store file, which runs a
 * PASSIVE checkpoint each time it is asked and answers when it is done, until it is told to close.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const db = new Database((workerData as { file: string }).file, { fileMustExist: true });

parentPort!.on('message', (message: 'checkpoint' | 'close') => {
  if (message === 'close') {
    db.close();
    parentPort!.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort!.postMessage({ ok: true });
  } catch (err) {
    parentPort!.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
