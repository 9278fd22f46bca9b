import type { AcaciaClient, ApiResponse } from '../../src/client/index.js';
import type { Cluster, Member } from './load-cluster.js';
import type { SeededRandom } from './seeded-random.js';

/** Whether a resource was deleted: `maybe` after a delete that was never acknowledged. */
export type Deleted = 'no' | 'yes' | 'maybe';

/** What the acknowledged writes say a resource is; `undefined` fields are unknown (a write to them was lost). */
export interface WorkgroupModel {
  id: string;
  name: string | undefined;
  deleted: Deleted;
}

export interface WorkspaceModel {
  id: string;
  wg: string;
  isRw: boolean;
  dbId: string;
  name: string | undefined;
  /** The size it runs at once its acknowledged requests have settled. */
  size: string | undefined;
  /** The size it ran at before the last acknowledged resize, which it reads until that resize is done. */
  sizeBefore?: string | undefined;
  /** The stable state the acknowledged lifecycle requests lead to. */
  state: 'active' | 'stopped' | 'failed' | undefined;
  /** Created with `fail:resize`: its resizes fail on purpose. */
  failResize: boolean;
  /** Has (or may have) schedules, which move its state by themselves. */
  scheduled: boolean;
  deleted: Deleted;
}

export interface EntryModel {
  id: string;
  wg: string;
  cidr: string;
  note: string | undefined;
  deleted: Deleted;
}

export interface ScheduleModel {
  id: string;
  wg: string;
  ws: string;
  action: string;
  time: string;
  timezone: string;
  /** next_run_at when it was created: its occurrences are this plus whole days. */
  firstRun: number;
}

export type Outcome<T> = { kind: 'ack'; result: T } | { kind: 'refused'; status: number } | { kind: 'lost' };

/** The shared side of a load: where requests go, what came back, and what went wrong. */
export class Load {
  readonly problems: string[] = [];
  readonly counts = { requests: 0, acked: 0, refused: 0, lost: 0 };
  /** How many refusals of each request and reason. */
  readonly refusals = new Map<string, number>();
  /** Creates whose outcome is unknown: at most this many unexpected resources may exist. */
  readonly unackedCreates = { workgroups: 0, workspaces: 0, entries: 0, schedules: 0 };
  readonly schedules: ScheduleModel[] = [];
  stepsDone = 0;

  constructor(
    readonly cluster: Cluster,
    readonly random: SeededRandom,
    readonly providerId: string,
  ) {}

  /**
   * Sends one request to a live process. 200 is acknowledged; 409 (a state or concurrency
   * conflict, Type Bad-Request) and, where the resource may be gone, 404 (Type Not-Found)
   * are refusals that change nothing. A request that fails in flight to a process that was
   * killed is lost: its outcome is unknown. Anything else is a problem.
   */
  async send<T>(
    label: string,
    call: (c: AcaciaClient) => Promise<ApiResponse<T>>,
    opts: { mayBeGone?: boolean } = {},
  ): Promise<Outcome<T>> {
    const member: Member = await this.cluster.pick(this.random.next());
    this.counts.requests++;
    let res: ApiResponse<T>;
    try {
      res = await call(member.client);
    } catch (err) {
      this.counts.lost++;
      if (!member.killed)
        this.problems.push(`${label} on ${member.name}, which was not killed: ${(err as Error).message}`);
      return { kind: 'lost' };
    }
    if (res.status === 200) {
      this.counts.acked++;
      return { kind: 'ack', result: (res.body as { Result: T }).Result };
    }
    if (res.status === 409 || (res.status === 404 && opts.mayBeGone)) {
      // The status alone does not prove a refusal that changed nothing (a route or handler
      // error answers 404 or 409 too); the envelope's Type does. The body may be empty.
      const type = res.status === 409 ? 'Bad-Request' : 'Not-Found';
      const details = res.body?.Error === true && Array.isArray(res.body.ErrorDetails) ? res.body.ErrorDetails : [];
      const detail = details.find((d) => d.Type === type);
      if (!detail) {
        this.problems.push(
          `${label} on ${member.name}: HTTP ${res.status} without a ${type} detail: ${JSON.stringify(res.body)}`,
        );
        return { kind: 'refused', status: res.status };
      }
      this.counts.refused++;
      const key = `${label}: ${res.status} ${detail.Reason.replace(/"?[0-9a-f]{8}-[0-9a-f-]{27}"?/g, '…')}`;
      this.refusals.set(key, (this.refusals.get(key) ?? 0) + 1);
      return { kind: 'refused', status: res.status };
    }
    this.problems.push(`${label} on ${member.name}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return { kind: 'refused', status: res.status };
  }
}
