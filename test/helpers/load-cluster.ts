import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../../src/store/store.js';
import { serveProcess, stopProcess, type ServeProcess } from './serve.js';
import type { StoreLocation } from './server.js';

/** One server process of a cluster, named for messages. */
export interface Member extends ServeProcess {
  name: string;
  /** Set from the moment the process is killed: what was in flight to it is unacknowledged. */
  killed: boolean;
}

/**
 * Server processes on one store that a load spreads over. A killed member leaves the
 * rotation; while none is alive (one process restarting), `pick` waits for the next.
 */
export class Cluster {
  readonly members: Member[] = [];
  private started = 0;
  private waiting?: { promise: Promise<void>; resolve: () => void };

  constructor(
    private readonly store: StoreLocation,
    private readonly key: string,
    private readonly env: Record<string, string>,
  ) {}

  get alive(): Member[] {
    return this.members.filter((m) => !m.killed);
  }

  async start(): Promise<Member> {
    const member: Member = {
      ...(await serveProcess(this.store, this.key, this.env)),
      name: `p${++this.started}`,
      killed: false,
    };
    this.members.push(member);
    this.waiting?.resolve();
    this.waiting = undefined;
    return member;
  }

  /** A live member chosen by `random` (0 ≤ r < 1). */
  async pick(random: number): Promise<Member> {
    for (;;) {
      const alive = this.alive;
      if (alive.length > 0) return alive[Math.floor(random * alive.length)]!;
      if (!this.waiting) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => (resolve = r));
        this.waiting = { promise, resolve };
      }
      await this.waiting.promise;
    }
  }

  /**
   * Kills `victim` with SIGKILL at an instant it holds the lease of at least one operation,
   * so the kill strands leased work for the others to reclaim: whenever the store shows a
   * lease of the victim, the victim is frozen (SIGSTOP), the store read again once what it
   * already sent has landed, and the kill made only if a lease is still held; otherwise it
   * resumes (SIGCONT) and the watch goes on. `stir` makes it claim work (called again each
   * time it settles). Returns the operations it held when killed.
   */
  async killHoldingLease(
    victim: Member,
    db: Store['db'],
    stir: () => Promise<unknown>,
    timeoutMs: number,
  ): Promise<string[]> {
    const tag = `:${victim.child.pid}:`;
    const held = async () =>
      (await db.selectFrom('operations').select(['id', 'lease_owner']).where('state', '=', 'running').execute())
        .filter((r) => r.lease_owner?.includes(tag))
        .map((r) => r.id);
    const deadline = Date.now() + timeoutMs;
    let stirring: Promise<unknown> | undefined;
    let stranded: string[] = [];
    while (Date.now() < deadline) {
      stirring ??= stir()
        .catch(() => undefined)
        .finally(() => (stirring = undefined));
      if ((await held()).length > 0) {
        victim.child.kill('SIGSTOP');
        await sleep(100);
        stranded = await held();
        if (stranded.length > 0) break;
        victim.child.kill('SIGCONT');
      }
      await sleep(1);
    }
    victim.killed = true;
    await stopProcess(victim.child, 'SIGKILL');
    return stranded;
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => stopProcess(m.child, 'SIGKILL')));
  }
}
