import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Clock } from './clock.js';

/**
 * New resource ids are UUIDv7: time-ordered, so lists sorted by (created_at, id) keep
 * creation order even when timestamps tie (a manual clock that has not moved), and
 * PostgreSQL's indexes stay compact.
 */
export const newId = (): string => (seeded ? seeded.next() : uuidv7());

/**
 * UUIDv7 whose random bits come from a seed (ACACIA_ID_SEED) and whose time is the server's
 * clock: the same requests against a fresh server on the manual clock get the same ids.
 * The bits are SHA-256 of the seed and a draw counter, so the sequence depends on the seed
 * and on how many ids were made before, nothing else. Within one millisecond the ids stay
 * ordered: the first id of a millisecond starts a 42-bit counter at a drawn value below
 * 2^41, later ones of that millisecond add one to it (as the uuid package does).
 */
export class SeededIds {
  private draws = 0;
  private lastMs = -1;
  private counter = 0;

  constructor(
    private readonly seed: string,
    private readonly clock: Clock,
  ) {}

  next(): string {
    const bytes = this.draw();
    const ms = Math.max(this.clock.now(), this.lastMs);
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      // 41 bits of the draw: room for 2^41 more ids within this millisecond.
      this.counter = (bytes.readUInt32BE(0) & 0x1ffffff) * 0x10000 + bytes.readUInt16BE(4);
    } else this.counter += 1;
    const out = Buffer.alloc(16);
    out.writeUIntBE(ms, 0, 6);
    // Counter bits 41..30 go in rand_a (12 bits), 29..0 in the top of rand_b.
    const high = Math.floor(this.counter / 2 ** 30);
    const low = this.counter % 2 ** 30;
    out.writeUInt16BE(0x7000 | (high & 0x0fff), 6);
    // The variant (binary 10) tops byte 8; the counter's low 30 bits fill the rest of that word.
    out.writeUInt32BE((0x80000000 | low) >>> 0, 8);
    out.writeUInt32BE(bytes.readUInt32BE(8), 12);
    const hex = out.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private draw(): Buffer {
    return createHash('sha256').update(`${this.seed}\n${this.draws++}`).digest();
  }
}

let seeded: SeededIds | undefined;

/**
 * Makes new ids come from `seed` from now on (starting its sequence afresh), or from the
 * system's randomness when undefined. It holds for the whole process: the server sets it once
 * when it starts and again when it is reset.
 */
export function seedIds(seed: string | undefined, clock: Clock): void {
  seeded = seed === undefined ? undefined : new SeededIds(seed, clock);
}
