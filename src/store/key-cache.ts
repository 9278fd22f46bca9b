import { ListenConnection, type Backoff } from './listen-connection.js';

/** The channel migration 0031's trigger announces key and organisation changes on. */
export const KEYS_CHANNEL = 'acacia_keys';
/** Where each listening connection says it has emptied its process's keys: `<row id> <backend pid>`. */
export const HEARD_CHANNEL = 'acacia_keys_heard';
/** The application_name of listening connections, by which a change's author finds who must hear it. */
export const LISTENER_NAME = 'acacia-key-listener';

/**
 * What authentication needs of a key and its organisation: what the key cache keeps, and what
 * the lookup by hash (repositories/api-keys.ts) reads.
 */
export interface KeyForAuthentication {
  id: string;
  org_id: string;
  key_name: string;
  role: string;
  workgroup_ids: string[];
  workspace_ids: string[];
  expires_at: number | null;
  revoked_at: number | null;
  org_name: string;
  org_tier: string;
  /** The key's user (null only for a key its user's row is missing for) and what it may do. */
  user_id: string | null;
  user_enabled: number | null;
  /** The user's grants (JSON text in the row, parsed by the lookup). */
  user_roles: Array<{ role: string; resource_id: string | null }>;
  platform_admin: number | null;
}

export interface KeyCacheOptions {
  databaseUrl: string;
  /** Keys kept at most; the longest-kept one goes first. */
  maxEntries?: number;
  /** The pauses before another listening connection is opened (listen-connection.ts). */
  backoff?: Backoff;
  onError?: (err: Error) => void;
}

/**
 * PostgreSQL: keys this process has looked up, by hash, so a request is authenticated
 * without a round trip. Kept only while a connection of its own LISTENs on KEYS_CHANNEL:
 * any change to a key or an organisation, by any process, empties it as the change
 * commits. Without that connection nothing is kept (every lookup goes to the store), and
 * whatever was kept is dropped when it goes, since a change may be missed meanwhile. A
 * lookup that ran while a change was announced is not kept (it may have read the row
 * before), which is what the generation taken before each lookup decides. Having emptied
 * it, the connection says so (HEARD_CHANNEL), so that the author of a change can answer its
 * client only once no process would still accept what it changed.
 */
export class KeyCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly maxEntries: number;
  private generation = 0;
  private listening = false;
  /** The one connection that listens; made on first use. */
  private readonly connection: ListenConnection;
  /** Changes whose authors wait for every process to hear them: row id → callbacks given a listener's pid. */
  private readonly waiting = new Map<string, Set<(pid: number) => void>>();
  /** Waits that end on close. */
  private readonly closers = new Set<() => void>();

  constructor(options: KeyCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.connection = new ListenConnection({
      databaseUrl: options.databaseUrl,
      channels: [KEYS_CHANNEL, HEARD_CHANNEL],
      applicationName: LISTENER_NAME,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
      onNotification: ({ channel, payload = '' }, client) => {
        if (channel === KEYS_CHANNEL) {
          this.forget();
          // Said only now that nothing is kept: its author answers its client once all have said it.
          client
            .query("select pg_notify($1, $2 || ' ' || pg_backend_pid())", [HEARD_CHANNEL, payload])
            .catch((err: Error) => this.connection.lose(client, err));
          return;
        }
        const [id = '', pid] = payload.split(' ');
        for (const onHeard of [...(this.waiting.get(id) ?? [])]) onHeard(Number(pid));
      },
      ready: () => {
        // Only lookups from now on are kept: a change before this moment was not heard.
        this.forget();
        this.listening = true;
      },
      lost: () => {
        // A change may go unheard from now on: nothing kept is trusted.
        this.listening = false;
        this.forget();
      },
    });
  }

  /** The kept value; starts listening on first use (a process that never authenticates never listens). */
  get(hash: string): V | undefined {
    if (!this.listening) {
      this.connection.start();
      return undefined;
    }
    return this.entries.get(hash);
  }

  /** Taken before a lookup, handed to `put` with its answer. */
  mark(): number | undefined {
    return this.listening ? this.generation : undefined;
  }

  /** Keeps a looked-up value, unless a change was announced (or listening stopped) since `mark`. */
  put(hash: string, value: V, mark: number | undefined): void {
    if (mark === undefined || mark !== this.generation || !this.listening) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, value);
  }

  /**
   * Makes a change to row `id` and resolves once every process listening then has emptied
   * what it kept (each says so on HEARD_CHANNEL after doing it), or after timeoutMs. An answer
   * that waits for it reaches its client when no process can still accept what was changed.
   */
  async changeHeardEverywhere<T>(id: string, change: () => Promise<T>, timeoutMs = 1000): Promise<T> {
    const client = this.listening ? this.connection.client : undefined;
    if (!client) return change();
    // Listened for from before the change, so that an early answer is not missed.
    const heard = new Set<number>();
    let check = () => {};
    const onHeard = (pid: number) => {
      heard.add(pid);
      check();
    };
    let waiting = this.waiting.get(id);
    if (!waiting) this.waiting.set(id, (waiting = new Set()));
    waiting.add(onHeard);
    let finish = () => {};
    try {
      const result = await change();
      // Committed: from here nothing fails the change, and a second at most is waited.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref();
        finish = () => {
          clearTimeout(timer);
          resolve();
        };
        this.closers.add(finish);
        client
          .query<{ pid: number }>(
            'select pid from pg_stat_activity where application_name = $1 and datname = current_database()',
            [LISTENER_NAME],
          )
          .then(({ rows }) => {
            check = () => {
              if (rows.every((row) => heard.has(row.pid))) finish();
            };
            check();
          }, finish);
      });
      return result;
    } finally {
      this.closers.delete(finish);
      waiting.delete(onHeard);
      if (waiting.size === 0 && this.waiting.get(id) === waiting) this.waiting.delete(id);
    }
  }

  async close(): Promise<void> {
    this.forget();
    for (const check of [...this.closers]) check();
    await this.connection.close();
  }

  private forget(): void {
    this.entries.clear();
    this.generation++;
  }
}
