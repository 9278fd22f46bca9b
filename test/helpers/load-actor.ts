import type { EntryModel, Load, WorkgroupModel, WorkspaceModel } from './load.js';

const SIZES = ['TG-00', 'TG-0'];

/**
 * One client of the load. It owns the resources it creates and changes them one request
 * at a time, so the order of its acknowledged writes is the order they took effect.
 */
export class Actor {
  readonly workgroups: WorkgroupModel[] = [];
  readonly workspaces: WorkspaceModel[] = [];
  readonly entries: EntryModel[] = [];
  private seq = 0;

  constructor(
    readonly n: number,
    private readonly load: Load,
  ) {}

  async run(steps: number, onStep: () => void): Promise<void> {
    for (let i = 0; i < steps; i++) {
      try {
        await this.step();
      } catch (err) {
        this.load.problems.push(`actor ${this.n}: ${(err as Error).stack}`);
      }
      onStep();
    }
  }

  private get liveWorkgroups() {
    return this.workgroups.filter((w) => w.deleted === 'no');
  }

  private get liveWorkspaces() {
    return this.workspaces.filter((w) => w.deleted === 'no');
  }

  private get liveEntries() {
    return this.entries.filter(
      (e) => e.deleted === 'no' && this.workgroups.find((w) => w.id === e.wg)?.deleted === 'no',
    );
  }

  /** Picks an action that applies now, by weight, and runs it. */
  private async step(): Promise<void> {
    const wgs = this.liveWorkgroups;
    const wss = this.liveWorkspaces;
    const rw = wss.filter((w) => w.isRw);
    const ro = wss.filter((w) => !w.isRw);
    const empty = wgs.filter(
      (g) => !this.workspaces.some((w) => w.wg === g.id) && !this.liveEntries.some((e) => e.wg === g.id),
    );
    const actions: Array<[weight: number, run: () => Promise<void>]> = [
      [wgs.length < 3 ? (wgs.length === 0 ? 100 : 4) : 0, () => this.createWorkgroup()],
      [wgs.length ? 3 : 0, () => this.renameWorkgroup()],
      [empty.length ? 2 : 0, () => this.deleteWorkgroup(empty)],
      [wgs.length && rw.length < 4 ? 8 : 0, () => this.createWorkspace(true)],
      [rw.length && ro.length < 3 ? 5 : 0, () => this.createWorkspace(false)],
      [wss.length ? 7 : 0, () => this.pauseOrResume(true)],
      [wss.length ? 7 : 0, () => this.pauseOrResume(false)],
      [rw.length ? 4 : 0, () => this.resize(rw)],
      [ro.length ? 2 : 0, () => this.refresh(ro)],
      [wss.length ? 4 : 0, () => this.renameWorkspace()],
      [wss.some((w) => !w.scheduled) ? 3 : 0, () => this.deleteWorkspace()],
      [wgs.length ? 5 : 0, () => this.createEntry()],
      [this.liveEntries.length ? 3 : 0, () => this.updateEntry()],
      [this.liveEntries.length ? 2 : 0, () => this.deleteEntry()],
      [wss.some((w) => !w.scheduled && !w.failResize) ? 3 : 0, () => this.createSchedules()],
      [5, () => this.moveClock()],
      [this.workspaces.length ? 6 : 0, () => this.readWorkspace()],
      [wgs.length ? 4 : 0, () => this.listWorkspaces()],
      [this.workgroups.length ? 3 : 0, () => this.readWorkgroup()],
      [wgs.length ? 3 : 0, () => this.listEntries()],
      [this.workspaces.length ? 2 : 0, () => this.listOperations()],
    ];
    const total = actions.reduce((s, [w]) => s + w, 0);
    let r = this.load.random.next() * total;
    for (const [w, run] of actions) {
      if ((r -= w) < 0) return run();
    }
  }

  private name(kind: string): string {
    return `a${this.n}-${kind}-${++this.seq}`;
  }

  private async createWorkgroup(): Promise<void> {
    const name = this.name('wg');
    const out = await this.load.send('create workgroup', (c) =>
      c.workgroups.create({ cloud_provider_id: this.load.providerId, name }),
    );
    if (out.kind === 'ack') this.workgroups.push({ id: out.result.workgroup_id, name, deleted: 'no' });
    if (out.kind === 'lost') this.load.unackedCreates.workgroups++;
  }

  private async renameWorkgroup(): Promise<void> {
    const wg = this.load.random.pick(this.liveWorkgroups);
    const name = this.name('wg');
    const out = await this.load.send('rename workgroup', (c) => c.workgroups.update(wg.id, { workgroup_name: name }));
    if (out.kind === 'ack')
      this.expect(out.result.name === name, `rename of workgroup ${wg.id} answered name ${out.result.name}`);
    wg.name = out.kind === 'ack' ? name : out.kind === 'lost' ? undefined : wg.name;
  }

  private async deleteWorkgroup(empty: WorkgroupModel[]): Promise<void> {
    const wg = this.load.random.pick(empty);
    const out = await this.load.send('delete workgroup', (c) => c.workgroups.delete(wg.id));
    if (out.kind !== 'refused') wg.deleted = out.kind === 'ack' ? 'yes' : 'maybe';
  }

  private async createWorkspace(isRw: boolean): Promise<void> {
    const name = this.name(isRw ? 'rw' : 'ro');
    let wg: string;
    let body;
    let failResize = false;
    if (isRw) {
      wg = this.load.random.pick(this.liveWorkgroups).id;
      failResize = this.seq % 4 === 0;
      body = { name, ...(failResize ? { x_test_env: 'fail:resize' } : {}) };
    } else {
      const source = this.load.random.pick(this.liveWorkspaces.filter((w) => w.isRw));
      wg = source.wg;
      body = { name, is_rw: false, tg_database_id: source.dbId };
    }
    const out = await this.load.send(`create ${isRw ? 'RW' : 'RO'} workspace`, (c) => c.workspaces.create(wg, body));
    if (out.kind === 'lost') this.load.unackedCreates.workspaces++;
    if (out.kind !== 'ack') return;
    const ws = out.result;
    this.expect(ws.name === name && ws.status === 'Creating', `create answered ${JSON.stringify(ws)}`);
    this.workspaces.push({
      id: ws.workspace_id!,
      wg,
      isRw,
      dbId: ws.database_id!,
      name,
      size: 'TG-00',
      state: 'active',
      failResize,
      scheduled: false,
      deleted: 'no',
    });
  }

  private async pauseOrResume(pause: boolean): Promise<void> {
    const ws = this.load.random.pick(this.liveWorkspaces);
    const out = await this.load.send(pause ? 'pause' : 'resume', (c) =>
      pause ? c.workspaces.pause(ws.wg, ws.id) : c.workspaces.resume(ws.wg, ws.id),
    );
    if (out.kind === 'lost') ws.state = undefined;
    if (out.kind !== 'ack') return;
    // The answer says what the request started: a resume of a Failed workspace re-runs its failed operation.
    const status = out.result.status;
    if (pause) {
      this.expect(status === 'Pausing' || status === 'Stopped' || status === 'Idle', `pause answered ${status}`);
      ws.state = 'stopped';
    } else {
      this.expect(status === 'Resuming' || status === 'Active' || status === 'Updating', `resume answered ${status}`);
      ws.state = status === 'Updating' && ws.failResize ? 'failed' : 'active';
    }
  }

  private async resize(rw: WorkspaceModel[]): Promise<void> {
    const ws = this.load.random.pick(rw);
    const size = ws.size === undefined ? this.load.random.pick(SIZES) : SIZES.find((s) => s !== ws.size)!;
    const out = await this.load.send('resize', (c) => c.workspaces.update(ws.wg, ws.id, { workspace_type_name: size }));
    if (out.kind === 'lost') {
      ws.size = undefined;
      ws.state = undefined;
    }
    if (out.kind !== 'ack') return;
    // The record shows what runs; while the resize runs, desired_workspace_type what it asks.
    const asked = out.result.desired_workspace_type ?? out.result.workspace_type;
    this.expect(asked?.typeName === size, `resize to ${size} answered ${JSON.stringify(out.result)}`);
    if (out.result.status !== 'Updating') {
      ws.size = size;
      return;
    }
    ws.sizeBefore = out.result.workspace_type?.typeName;
    // A resize injected to fail leaves the workspace at the size it ran at.
    ws.size = ws.failResize ? ws.sizeBefore : size;
    ws.state = ws.failResize ? 'failed' : 'active';
  }

  private async refresh(ro: WorkspaceModel[]): Promise<void> {
    const ws = this.load.random.pick(ro);
    const out = await this.load.send('refresh', (c) => c.workspaces.refresh(ws.wg, ws.id));
    if (out.kind === 'lost') ws.state = undefined;
    if (out.kind === 'ack') ws.state = 'active';
  }

  private async renameWorkspace(): Promise<void> {
    const ws = this.load.random.pick(this.liveWorkspaces);
    const name = this.name(ws.isRw ? 'rw' : 'ro');
    const out = await this.load.send('rename workspace', (c) =>
      c.workspaces.update(ws.wg, ws.id, { workspace_name: name }),
    );
    if (out.kind === 'ack') this.expect(out.result.name === name, `rename answered ${out.result.name}`);
    ws.name = out.kind === 'ack' ? name : out.kind === 'lost' ? undefined : ws.name;
  }

  private async deleteWorkspace(): Promise<void> {
    const ws = this.load.random.pick(this.liveWorkspaces.filter((w) => !w.scheduled));
    const out = await this.load.send('delete workspace', (c) => c.workspaces.delete(ws.wg, ws.id));
    if (out.kind === 'ack') this.expect(out.result.status === 'Deleting', `delete answered ${out.result.status}`);
    if (out.kind !== 'refused') ws.deleted = out.kind === 'ack' ? 'yes' : 'maybe';
  }

  private async createEntry(): Promise<void> {
    const wg = this.load.random.pick(this.liveWorkgroups);
    const cidr = `10.${this.n}.${++this.seq % 256}.0/24`;
    const note = this.name('note');
    const out = await this.load.send('create allow-list entry', (c) => c.allowList.create(wg.id, { cidr, note }));
    if (out.kind === 'lost') this.load.unackedCreates.entries++;
    if (out.kind !== 'ack') return;
    this.expect(
      out.result.cidr === cidr && out.result.note === note,
      `entry create answered ${JSON.stringify(out.result)}`,
    );
    this.entries.push({ id: out.result.id, wg: wg.id, cidr, note, deleted: 'no' });
  }

  private async updateEntry(): Promise<void> {
    const entry = this.load.random.pick(this.liveEntries);
    const note = this.name('note');
    const out = await this.load.send('update allow-list entry', (c) =>
      c.allowList.update(entry.wg, entry.id, { cidr: entry.cidr, note }),
    );
    entry.note = out.kind === 'ack' ? note : out.kind === 'lost' ? undefined : entry.note;
  }

  private async deleteEntry(): Promise<void> {
    const entry = this.load.random.pick(this.liveEntries);
    const out = await this.load.send('delete allow-list entry', (c) => c.allowList.delete(entry.wg, entry.id));
    if (out.kind !== 'refused') entry.deleted = out.kind === 'ack' ? 'yes' : 'maybe';
  }

  /**
   * A daily pause and, a few minutes later, a daily resume, in UTC or Tokyo (no daylight
   * saving, so occurrences are whole days apart); the first fall within the load.
   */
  private async createSchedules(): Promise<void> {
    const ws = this.load.random.pick(this.liveWorkspaces.filter((w) => !w.scheduled && !w.failResize));
    ws.scheduled = true;
    const minute = 5 * this.load.random.int(0, 4);
    const tokyo = this.load.random.next() < 0.5;
    for (const [action, m] of [
      ['pause', minute],
      ['resume', minute + 3],
    ] as const) {
      const time = `${tokyo ? '17' : '08'}:${String(m).padStart(2, '0')}`;
      const timezone = tokyo ? 'Asia/Tokyo' : 'UTC';
      const out = await this.load.send(`create ${action} schedule`, (c) =>
        c.schedules.create(ws.wg, ws.id, { repeat: 'daily', time, timezone, action, workspace_id: ws.id }),
      );
      if (out.kind === 'lost') this.load.unackedCreates.schedules++;
      if (out.kind === 'ack')
        this.load.schedules.push({
          id: out.result.id,
          wg: ws.wg,
          ws: ws.id,
          action,
          time,
          timezone,
          firstRun: Date.parse(out.result.next_run_at!),
        });
    }
  }

  private async moveClock(): Promise<void> {
    await this.load.send('move clock', (c) => c.moveClock({ advance_seconds: this.load.random.int(20, 119) }));
  }

  private async readWorkspace(): Promise<void> {
    const ws = this.load.random.pick(this.workspaces);
    const out = await this.load.send('get workspace', (c) => c.workspaces.get(ws.wg, ws.id), {
      mayBeGone: ws.deleted !== 'no',
    });
    if (out.kind === 'ack') this.checkWorkspace(ws, out.result);
  }

  private async listWorkspaces(): Promise<void> {
    const wg = this.load.random.pick(this.liveWorkgroups);
    const out = await this.load.send('list workspaces', (c) => c.workspaces.list(wg.id));
    if (out.kind !== 'ack') return;
    for (const ws of this.workspaces.filter((w) => w.wg === wg.id)) {
      const found = out.result.find((r) => r.workspace_id === ws.id);
      if (found) this.checkWorkspace(ws, found);
      else this.expect(ws.deleted !== 'no', `acknowledged workspace ${ws.id} missing from the list of ${wg.id}`);
    }
  }

  private checkWorkspace(ws: WorkspaceModel, r: { name?: string; workspace_type?: { typeName?: string } }): void {
    if (ws.name !== undefined)
      this.expect(r.name === ws.name, `workspace ${ws.id} reads name ${r.name}, acknowledged ${ws.name}`);
    const read = r.workspace_type?.typeName;
    if (ws.size !== undefined)
      this.expect(
        read === ws.size || (ws.sizeBefore !== undefined && read === ws.sizeBefore),
        `workspace ${ws.id} reads size ${read}, acknowledged ${ws.size}`,
      );
  }

  private async readWorkgroup(): Promise<void> {
    const wg = this.load.random.pick(this.workgroups);
    const out = await this.load.send('get workgroup', (c) => c.workgroups.get(wg.id), {
      mayBeGone: wg.deleted !== 'no',
    });
    if (out.kind === 'ack' && wg.name !== undefined)
      this.expect(
        out.result.name === wg.name,
        `workgroup ${wg.id} reads name ${out.result.name}, acknowledged ${wg.name}`,
      );
  }

  private async listEntries(): Promise<void> {
    const wg = this.load.random.pick(this.liveWorkgroups);
    const out = await this.load.send('list allow list', (c) => c.allowList.list(wg.id));
    if (out.kind !== 'ack') return;
    for (const e of this.entries.filter((x) => x.wg === wg.id)) {
      const found = out.result.find((r) => r.id === e.id);
      if (e.deleted === 'yes') this.expect(!found, `deleted entry ${e.id} still listed`);
      if (e.deleted === 'no')
        this.expect(
          found?.cidr === e.cidr && (e.note === undefined || found.note === e.note),
          `entry ${e.id} reads ${JSON.stringify(found)}`,
        );
    }
  }

  private async listOperations(): Promise<void> {
    const ws = this.load.random.pick(this.workspaces);
    const out = await this.load.send('list operations', (c) => c.operations.list({ resource_id: ws.id }));
    if (out.kind === 'ack')
      this.expect(
        out.result.filter((o) => o.kind === 'workspace.create').length === 1,
        `workspace ${ws.id} has ${out.result.length} operations, not one create`,
      );
  }

  private expect(ok: boolean, message: string): void {
    if (!ok) this.load.problems.push(`actor ${this.n}: ${message}`);
  }
}
