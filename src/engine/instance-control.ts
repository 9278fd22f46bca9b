import fs from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../domain/clock.js';
import { forbidden } from '../domain/errors.js';
import { seedIds } from '../domain/ids.js';
import { BOOTSTRAP_KEY_NAME, BOOTSTRAP_ORG } from '../domain/organisations.js';
import { findOrganisationByName } from '../store/repositories/organisations.js';
import { emptyInstance } from '../store/repositories/instance.js';
import type { Store } from '../store/store.js';
import type { Drivers } from './drivers/driver.js';
import type { Engine } from './engine.js';
import { loadSnapshot, saveSnapshot, verifySnapshot, type SnapshotSummary } from './instance-snapshot.js';

/** The settings that decide what may be done to the whole instance. */
export interface InstanceSettings {
  clock: 'system' | 'manual';
  faultInjection: boolean;
  idSeed?: string | undefined;
  dataDir: string;
  /** The largest snapshot file taken (its gzip'd size); what it inflates to is bounded at 100 times that. */
  snapshotMaxBytes: number;
}

/**
 * What acts on the whole instance at once: resetting it, replacing its state. Each runs with
 * the engine paused and the workspaces' processes stopped, then lets the engine start again
 * what the new state says runs.
 */
export class InstanceControl {
  constructor(
    private readonly deps: {
      store: Store;
      engine: Engine;
      drivers: Drivers;
      clock: Clock;
      settings: Readonly<InstanceSettings>;
    },
  ) {}

  /** Test mode: the manual clock or fault injection is on. Reset and load are refused outside it. */
  get testMode(): boolean {
    const { clock, faultInjection } = this.deps.settings;
    return clock === 'manual' || faultInjection;
  }

  /** Throws Forbidden, naming the setting that would allow it, outside test mode. */
  requireTestMode(what: string): void {
    if (!this.testMode)
      throw forbidden(
        'ACACIA_CLOCK',
        `${what} is allowed only in test mode: start the server with ACACIA_CLOCK=manual or ACACIA_FAULT_INJECTION=on`,
      );
  }

  /** Throws Forbidden unless the organisation is the bootstrap organisation. */
  async requireBootstrapOrganisation(orgId: string): Promise<void> {
    const org = await findOrganisationByName(this.deps.store.db, BOOTSTRAP_ORG);
    if (org?.id !== orgId)
      throw forbidden('x-api-key', `only an org-admin key of the organisation "${BOOTSTRAP_ORG}" may do this`);
  }

  /**
   * Empties the instance but for the bootstrap organisation and its bootstrap key, and starts
   * the seeded ids afresh. The manual clock keeps its time (it never goes back).
   */
  async reset(): Promise<void> {
    this.requireTestMode('reset');
    await this.exclusive(async () => {
      await this.deps.store.transaction(async (tx) =>
        emptyInstance(tx.db, { organisation: BOOTSTRAP_ORG, key: BOOTSTRAP_KEY_NAME }),
      );
      // The graphs of the local driver's databases went with their rows.
      await fs.rm(path.join(this.deps.settings.dataDir, 'graphs'), { recursive: true, force: true });
      seedIds(this.deps.settings.idSeed, this.deps.clock);
    });
  }

  /** Writes the whole instance to `file` (docs/snapshots.md). */
  async save(file: string): Promise<void> {
    await saveSnapshot(this.deps.store, this.deps.settings.dataDir, file, this.deps.clock.now());
  }

  /**
   * Replaces the whole instance with the snapshot in `file`: checked through first (a damaged,
   * truncated, foreign or newer file is refused and nothing changes), then loaded with the
   * engine paused and the workspaces' processes stopped; the Active ones start again on the
   * loaded graphs. `atStart` skips the test-mode check: the operator asked for it at start-up.
   */
  async load(file: string, atStart = false): Promise<SnapshotSummary> {
    if (!atStart) this.requireTestMode('loading a snapshot');
    const inflated = this.deps.settings.snapshotMaxBytes * 100;
    await verifySnapshot(file, inflated);
    return this.exclusive(async () => {
      const summary = await loadSnapshot(this.deps.store, this.deps.settings.dataDir, file, inflated);
      seedIds(this.deps.settings.idSeed, this.deps.clock);
      return summary;
    });
  }

  /** Runs `fn` with the engine paused and the workspaces' processes stopped. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.deps.engine.exclusive(async () => {
      await this.deps.drivers.quiesce?.();
      return fn();
    });
  }
}
