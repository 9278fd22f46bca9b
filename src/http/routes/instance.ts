import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { authorize } from '../../domain/permissions.js';
import type { Clock } from '../../domain/clock.js';
import { iso } from '../../domain/time.js';
import { ok } from '../envelope.js';
import { serveEndpoint } from '../serve-endpoint.js';
import { SNAPSHOT_PATH } from '../../schemas/snapshot.js';

/** What a loaded snapshot held. */
export interface SnapshotLoaded {
  created_at: string;
  schema: string;
  store: string;
  rows: number;
  files: number;
}

/** What acts on the whole instance, as the routes need it (the engine's InstanceControl). */
export interface InstanceAdmin {
  /** Throws Forbidden unless the organisation is the bootstrap organisation. */
  requireBootstrapOrganisation(orgId: string): Promise<void>;
  /** Throws Forbidden, naming the setting, outside test mode. */
  requireTestMode(what: string): void;
  /** Empties the instance but for the bootstrap organisation and key; Forbidden outside test mode. */
  reset(): Promise<void>;
  /** Writes the whole instance to the file. */
  save(file: string): Promise<void>;
  /** Replaces the whole instance with the file's snapshot, or refuses it whole. */
  load(file: string): Promise<SnapshotLoaded>;
}

/** A file of this process's own for a snapshot on its way, removed by the caller. */
const scratchFile = () => path.join(tmpdir(), `acacia-snapshot-${randomBytes(8).toString('hex')}.gz`);

/**
 * POST /_test/reset (test mode only), and GET/PUT /_admin/snapshot (the load in test mode
 * only): org-admin keys of the bootstrap organisation. A snapshot is a gzip'd file, not JSON:
 * it is written to a file of its own first and sent from it (the store is read in one
 * transaction that a slow client must not hold open), and a load is received into a file,
 * bounded by `maxBytes`, and checked through before anything changes.
 */
export function instanceRoutes(
  scope: FastifyInstance,
  instance: InstanceAdmin,
  clock: Clock,
  { maxBytes }: { maxBytes: number },
): void {
  serveEndpoint(scope, 'resetInstance', async (request) => {
    authorize(request.principal, 'org:admin');
    await instance.requireBootstrapOrganisation(request.principal.orgId);
    await instance.reset();
    return { now: iso(clock.now()) };
  });

  // The body is read by the route itself, as it arrives: no parser holds it.
  scope.addContentTypeParser(['application/gzip', 'application/octet-stream'], (_request, _payload, done) =>
    done(null, undefined),
  );

  scope.get(SNAPSHOT_PATH, async (request, reply) => {
    authorize(request.principal, 'org:admin');
    await instance.requireBootstrapOrganisation(request.principal.orgId);
    const file = scratchFile();
    try {
      await instance.save(file);
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    const stream = createReadStream(file);
    stream.on('close', () => void fs.rm(file, { force: true }));
    const name = `acacia-${iso(clock.now()).replace(/[:]/g, '')}.snapshot.gz`;
    return reply
      .type('application/gzip')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('content-length', String((await fs.stat(file)).size))
      .send(stream);
  });

  scope.put(SNAPSHOT_PATH, async (request) => {
    authorize(request.principal, 'org:admin');
    await instance.requireBootstrapOrganisation(request.principal.orgId);
    instance.requireTestMode('loading a snapshot');
    const type = String(request.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    if (type !== 'application/gzip' && type !== 'application/octet-stream')
      throw new AppError('unsupported-media-type', {
        field: 'content-type',
        reason: 'a snapshot is sent as application/gzip',
      });
    const declared = Number(request.headers['content-length']);
    if (declared > maxBytes) throw tooLarge(maxBytes);
    const file = scratchFile();
    try {
      let received = 0;
      const cap = new Transform({
        transform(chunk: Buffer, _enc, next) {
          received += chunk.length;
          next(received > maxBytes ? tooLarge(maxBytes) : null, chunk);
        },
      });
      await pipeline(request.raw, cap, createWriteStream(file, { mode: 0o600 }));
      return ok(request, await instance.load(file));
    } finally {
      await fs.rm(file, { force: true });
    }
  });
}

const tooLarge = (maxBytes: number) =>
  new AppError('payload-too-large', {
    field: 'snapshot',
    reason: `is larger than ${maxBytes} bytes (ACACIA_SNAPSHOT_MAX_SIZE)`,
  });
