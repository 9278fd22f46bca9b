import { KEYS_CHANNEL } from './key-cache.js';
import { ListenConnection } from './listen-connection.js';
import { onKeyChanged } from './repositories/api-keys.js';
import { EVENTS_CHANNEL, newestEventId } from './repositories/events.js';
import type { Store } from './store.js';

/** The application_name of a process's connection that listens for events. */
export const EVENT_LISTENER_NAME = 'acacia-event-listener';

/**
 * Tells event streams that new events may be in the table, and that an API key or an
 * organisation may have changed (a key revoked); they read the table themselves.
 */
export interface EventSignals {
  /** Calls listener whenever events may have been committed; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /**
   * Calls listener with the id of a key or organisation that changed, or without one when a
   * change may have been missed (every key must be looked at again); returns the unsubscribe.
   */
  subscribeKeys(listener: (id?: string) => void): () => void;
  close(): Promise<void>;
}

export interface EventSignalOptions {
  databaseUrl?: string | undefined;
  /** SQLite: how often max(id) is read for other processes' commits while anyone listens. */
  pollMs?: number;
  /** PostgreSQL: the safety-net poll, should a notification be lost with its connection. */
  safetyPollMs?: number;
  onError?: (err: Error) => void;
}

/**
 * The signals of one process: its own commits with events (after COMMIT), and other
 * processes' — on PostgreSQL by LISTEN on one connection of its own (pg_notify in the
 * writing transaction is delivered at commit) with a slow poll as a safety net; on SQLite by
 * polling max(id), which another process may have moved. A signal carries nothing: streams
 * read the table after the last id they sent, so a spurious or merged signal is harmless.
 *
 * Key changes: this process's own as they commit; on PostgreSQL other processes' too, on the
 * same connection (the channel of migration 0031's trigger). On SQLite another process's
 * change is not signalled: streams find it when they next look at their key.
 */
export function eventSignals(store: Store, options: EventSignalOptions = {}): EventSignals {
  const listeners = new Set<() => void>();
  const fire = () => {
    for (const listener of [...listeners]) listener();
  };
  const keyListeners = new Set<(id?: string) => void>();
  const fireKeys = (id?: string) => {
    for (const listener of [...keyListeners]) listener(id);
  };
  const ownCommits = store.onEventsCommitted(fire);
  const ownKeyChanges = onKeyChanged(store, fireKeys);
  let timer: ReturnType<typeof setInterval> | undefined;
  let connection: ListenConnection | undefined;
  const onError = options.onError ?? (() => undefined);

  if (store.dialect === 'postgres' && options.databaseUrl) {
    connection = new ListenConnection({
      databaseUrl: options.databaseUrl,
      channels: [EVENTS_CHANNEL, KEYS_CHANNEL],
      applicationName: EVENT_LISTENER_NAME,
      onNotification: ({ channel, payload }) => (channel === KEYS_CHANNEL ? fireKeys(payload) : fire()),
      // Anything committed, and any key changed, while there was no listener; the poll covers
      // events until then.
      ready: () => {
        fire();
        fireKeys();
      },
      onError,
    });
    connection.start();
    timer = setInterval(fire, options.safetyPollMs ?? 5000);
    timer.unref();
  } else {
    let newest: number | undefined;
    const poll = async () => {
      if (listeners.size === 0) {
        newest = undefined;
        return;
      }
      // The read-only connection, when there is one, answers without queueing behind writes.
      const reads = store.committedReads;
      const now = reads
        ? Number((reads.statement('select max(id) as id from events').get() as { id: number | null }).id ?? 0)
        : await newestEventId(store.db);
      // The first look after a listener came has nothing to compare with: it signals anyway
      // (a spurious signal costs one read), so a commit just before it is not missed.
      if (now !== newest) fire();
      newest = now;
    };
    let polling = false;
    timer = setInterval(() => {
      if (polling) return;
      polling = true;
      poll()
        .catch(onError)
        .finally(() => (polling = false));
    }, options.pollMs ?? 100);
    timer.unref();
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribeKeys(listener) {
      keyListeners.add(listener);
      return () => keyListeners.delete(listener);
    },
    async close() {
      ownCommits();
      ownKeyChanges();
      keyListeners.clear();
      clearInterval(timer);
      listeners.clear();
      await connection?.close();
    },
  };
}
