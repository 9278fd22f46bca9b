import pg from 'pg';

/** How long a process waits before listening again: the first pause and the longest one. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/**
 * After a lost connection the next is opened half a second later; each connection in a row
 * that fails before it listens doubles the pause, up to half a minute, so that a database
 * that is down or refusing connections is not hammered by every process at once.
 */
export const RECONNECT_BACKOFF: Backoff = { firstMs: 500, maxMs: 30_000 };

/** How long a connection may take to be made before it counts as failed. */
const CONNECT_TIMEOUT_MS = 10_000;
/** How long a listening connection being closed may take to say goodbye before its socket is cut. */
const END_GRACE_MS = 1000;

/** The pause before the next connection, after `failures` connections in a row that never listened. */
export function reconnectDelay(failures: number, backoff: Backoff = RECONNECT_BACKOFF): number {
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(failures, 30));
}

export interface ListenConnectionOptions {
  databaseUrl: string;
  /** The channels listened on (identifiers of this code, not input). */
  channels: readonly string[];
  /**
   * The connection's application_name, set once it listens: a process that finds it in
   * pg_stat_activity knows it hears what is announced from then on.
   */
  applicationName: string;
  /** Notifications of the connection; `client` is the connection that received them. */
  onNotification?: (message: pg.Notification, client: pg.Client) => void;
  /** A connection listens; it is the only one until `lost`. */
  ready?: (client: pg.Client) => void;
  /** The connection `ready` gave went (called once for each `ready`). */
  lost?: () => void;
  /** Why a connection failed or went. */
  onError?: (err: Error) => void;
  backoff?: Backoff;
}

/** The connection of one turn of the loop, and how to end that turn. */
interface Turn {
  client: pg.Client;
  lose(err?: Error): void;
}

/**
 * A connection of its own that LISTENs, kept open by one loop that alone makes connections:
 * connect, listen, name it, `ready`, wait for it to go, `lost`, pause, again. pg reports one
 * loss several ways (a terminated backend sends an error, then its socket closes: two 'error'
 * events; then 'end'), and a failed connect or statement reports it again: the turn acts on
 * the first and ignores the rest. So at most one pg.Client exists at any moment, whatever the
 * connection does, and the old one has closed before the next is made.
 */
export class ListenConnection {
  private running: Promise<void> | undefined;
  private closed = false;
  private turn: Turn | undefined;
  private listening: pg.Client | undefined;
  /** Ends the pause between two connections early (on close). */
  private wake: (() => void) | undefined;

  constructor(private readonly options: ListenConnectionOptions) {
    for (const channel of options.channels) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    }
  }

  /** The connection while it listens. */
  get client(): pg.Client | undefined {
    return this.listening;
  }

  /** Starts the loop; does nothing when it runs already, or after close. */
  start(): void {
    if (this.running || this.closed) return;
    this.running = this.loop();
  }

  /** Gives up `client` as lost (a statement on it failed), if it is still the one in use. */
  lose(client: pg.Client, err?: Error): void {
    if (this.turn?.client === client) this.turn.lose(err ?? new Error('the listening connection was given up'));
  }

  /** Ends the loop and its connection, one being made too; resolves once it has closed. */
  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    this.turn?.lose();
    await this.running;
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      let listened = false;
      try {
        listened = await this.connection();
      } catch (err) {
        this.options.onError?.(err as Error);
      }
      if (this.closed) return;
      failures = listened ? 0 : failures + 1;
      // A lost connection is replaced after the first pause; each failed attempt in a row doubles it.
      await this.pause(reconnectDelay(failures, this.options.backoff));
    }
  }

  /** One connection, from connect to closed; true when it listened. */
  private async connection(): Promise<boolean> {
    const { options } = this;
    const client = new pg.Client({
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    let socketClosed = false;
    let listened = false;
    let gone = false;
    let settle!: (err: Error | undefined) => void;
    const loss = new Promise<Error | undefined>((resolve) => (settle = resolve));
    const lose = (err?: Error) => {
      if (gone) return;
      gone = true;
      if (listened) {
        // Said at once, not a turn later: nothing may count on this connection meanwhile.
        this.listening = undefined;
        options.lost?.();
      }
      settle(err);
    };
    this.turn = { client, lose };
    client.on('error', lose);
    client.on('end', () => {
      socketClosed = true;
      lose(new Error('the listening connection ended'));
    });
    client.on('notification', (message) => {
      if (!gone) options.onNotification?.(message, client);
    });
    const setUp = async () => {
      await client.connect();
      await client.query(options.channels.map((channel) => `listen ${channel}`).join('; '));
      // Named only now that it listens (see applicationName).
      await client.query("select set_config('application_name', $1, false)", [options.applicationName]);
    };
    setUp()
      .then(() => {
        if (gone) return;
        listened = true;
        this.listening = client;
        options.ready?.(client);
      }, lose)
      .catch((err: Error) => options.onError?.(err));

    const err = await loss;
    if (err && !this.closed) options.onError?.(err);
    if (!socketClosed) await this.end(client, listened && !err);
    this.turn = undefined;
    return listened;
  }

  /**
   * Closes the connection and resolves once its socket has: one that listens says goodbye
   * (briefly); any other (lost, or still being made) has its socket cut at once, since a
   * connect in flight would otherwise finish and stay open.
   */
  private async end(client: pg.Client, graceful: boolean): Promise<void> {
    const closed = new Promise<void>((resolve) => client.once('end', () => resolve()));
    const cut = () => client.connection.stream.destroy();
    client.end().catch(() => undefined);
    const timer = graceful ? setTimeout(cut, END_GRACE_MS) : undefined;
    if (!graceful) cut();
    await closed;
    clearTimeout(timer);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), ms);
      // The pause alone does not keep the process alive.
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}
