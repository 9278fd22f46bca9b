import type { Readable } from 'node:stream';
import { request as undiciRequest, type Dispatcher } from 'undici';
import { API_PREFIX, type ErrorEnvelope, type SuccessEnvelope } from '../schemas/envelope.js';
import type { OperationRecord } from '../schemas/operation.js';
import type { CloudProviderRecord } from '../schemas/cloud-provider.js';
import type { WorkspaceRecord } from '../schemas/workspace.js';
import type { EndpointSpec } from '../schemas/endpoints/index.js';
import { buildSurface, type ApiResponse, type ClientSurface, type RequestOptions } from './surface.js';
import { AcaciaApiError } from './errors.js';
import { waitForChange, type Clock, type WaitOptions, type WaitTarget } from './wait.js';
import { openEventStream, type EventStreamReader } from './event-stream.js';
import { SNAPSHOT_PATH, type SnapshotSummary } from '../schemas/snapshot.js';

export type { AddonConfigRecord, AddonRecord, InstalledAddonRecord } from '../schemas/addon.js';
export type { AllowListEntryRecord, CurrentIpRecord } from '../schemas/allow-list.js';
export type { ApiKeyRecord } from '../schemas/api-key.js';
export type { BackupRecord, BackupScheduleRecord, RestoreStatusRecord } from '../schemas/backup.js';
export type { CloudProviderRecord } from '../schemas/cloud-provider.js';
export type { DbUserRecord } from '../schemas/db-user.js';
export type { ErrorDetail, ErrorEnvelope, SuccessEnvelope } from '../schemas/envelope.js';
export type { MetaRecord } from '../schemas/meta.js';
export type { OperationRecord } from '../schemas/operation.js';
export type { EventRecord, EventType } from '../schemas/event.js';
export type { EventMessage, EventStreamReader } from './event-stream.js';
export type { ScheduleRecord } from '../schemas/schedule.js';
export type { WorkgroupRecord } from '../schemas/workgroup.js';
export type { DatabaseRecord, WorkspaceRecord } from '../schemas/workspace.js';
export type { WorkspaceStatus } from '../schemas/vocabulary.js';
export type { ApiEndpoints, EndpointId } from '../schemas/endpoints/index.js';
export type { ApiResponse, ClientMethod, ClientSurface, RequestOptions } from './surface.js';
export type { Clock, WaitOptions, WaitTarget } from './wait.js';
export { AcaciaOperationFailedError, AcaciaWaitTimeoutError, AcaciaWorkspaceFailedError } from './wait.js';
export { isConnectionLoss } from './errors.js';
export { AcaciaApiError, API_PREFIX };
export type { SnapshotSummary };

/** The Result of a successful response; throws AcaciaApiError otherwise. */
export function resultOf<T>(response: ApiResponse<T>): T {
  if (response.status !== 200 || response.body.Error) throw new AcaciaApiError(response);
  return (response.body as SuccessEnvelope<T>).Result;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** How the key is sent: the x-api-key header (default) or Authorization: Bearer. */
  auth?: 'x-api-key' | 'bearer';
  dispatcher?: Dispatcher;
  /** Time for waitFor; the system clock unless given (tests give a manual one; waitFor then polls). */
  clock?: Clock;
  /** waitFor reads again every so often instead of following the event stream. */
  poll?: boolean;
}

// The methods of every endpoint are added to the class from the endpoint table at run time
// (buildSurface); this declaration gives them their types.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface AcaciaClient extends ClientSurface {}

/**
 * Typed client of the Acacia API. Every endpoint of the table (src/schemas/endpoints) is a
 * method: `client.workspaces.create(workgroupId, body, options)` — path parameters in order,
 * then the body, then the query, then options — answering the status, headers and envelope.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class AcaciaClient {
  constructor(private readonly options: ClientOptions) {
    Object.assign(
      this,
      buildSurface((_id, op, call) =>
        this.request(op.method, call.path, {
          ...call.options,
          query: { ...(call.query as RequestOptions['query']), ...call.options.query },
          ...(call.body !== undefined ? { body: call.body } : {}),
        }),
      ),
    );
  }

  /** The same client with another API key. */
  withKey(apiKey: string | undefined): AcaciaClient {
    return new AcaciaClient({ ...this.options, ...(apiKey === undefined ? { apiKey: undefined } : { apiKey }) });
  }

  /**
   * The event stream of one resource (GET /events as text/event-stream, filtered by
   * resource_id), resumed after lastEventId; undefined when the server has no stream.
   */
  async openEvents(resourceId: string, lastEventId?: string): Promise<EventStreamReader | undefined> {
    // An injected clock moves only when waitFor sleeps, which a stream never does: poll then.
    if (this.options.poll || this.options.clock) return undefined;
    const url = new URL(`${API_PREFIX}/events`, this.options.baseUrl);
    url.searchParams.set('resource_id', resourceId);
    return openEventStream({ url, headers: this.authHeaders(), dispatcher: this.options.dispatcher, lastEventId });
  }

  /**
   * The organisation's event stream as `events follow` reads it: filtered as GET /events
   * filters (resource_id, workgroup_id, type), every message kept for take(), resumed after
   * lastEventId; undefined when the server answers anything but a stream.
   */
  async streamEvents(
    filters: { resource_id?: string; workgroup_id?: string; type?: string },
    lastEventId?: string,
  ): Promise<EventStreamReader | undefined> {
    const url = new URL(`${API_PREFIX}/events`, this.options.baseUrl);
    for (const [k, v] of Object.entries(filters)) if (v !== undefined) url.searchParams.set(k, v);
    return openEventStream({
      url,
      headers: this.authHeaders(),
      dispatcher: this.options.dispatcher,
      lastEventId,
      keep: true,
    });
  }

  private authHeaders(): Record<string, string> {
    const key = this.options.apiKey;
    if (key === undefined) return {};
    return this.options.auth === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
  }

  /** Any request, for what the endpoints do not cover (a path of its own, raw bodies). */
  async request<T = unknown>(
    method: Dispatcher.HttpMethod,
    path: string,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const url = new URL(path, this.options.baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = this.authHeaders();
    if (opts.ifMatch !== undefined) headers['if-match'] = `"${opts.ifMatch}"`;
    if (opts.ifNoneMatch !== undefined) headers['if-none-match'] = opts.ifNoneMatch;
    if (opts.idempotencyKey !== undefined) headers['idempotency-key'] = opts.idempotencyKey;
    Object.assign(headers, opts.headers);
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    return this.envelopeOf<T>(await this.send(url, { method, headers, body }));
  }

  /** Sends one request through this client's dispatcher. */
  private send(
    url: URL,
    init: { method: Dispatcher.HttpMethod; headers: Record<string, string>; body?: string | Readable },
  ) {
    return undiciRequest(url, { ...init, ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}) });
  }

  /** An answer's status, headers and envelope. */
  private async envelopeOf<T>(res: Dispatcher.ResponseData): Promise<ApiResponse<T>> {
    const text = await res.body.text();
    const type = res.headers['content-type'];
    // A text answer (Prometheus metrics) is its Result as it is; its errors are envelopes.
    if (res.statusCode < 300 && typeof type === 'string' && type.startsWith('text/plain')) {
      const id = res.headers['x-request-id'];
      return {
        status: res.statusCode,
        headers: res.headers,
        body: {
          Error: false,
          ErrorDetails: [],
          Message: 'OK',
          RequestID: typeof id === 'string' ? id : '',
          Result: text as T,
        },
      };
    }
    return {
      status: res.statusCode,
      headers: res.headers,
      body: text ? (JSON.parse(text) as SuccessEnvelope<T> | ErrorEnvelope) : (undefined as never),
    };
  }

  /**
   * GET /_admin/snapshot: the whole instance as a gzip'd snapshot (docs/snapshots.md), to be
   * read from `body` as it arrives; an error answers its envelope instead.
   */
  async downloadSnapshot(): Promise<
    { status: 200; body: AsyncIterable<Uint8Array> } | { status: number; error: ApiResponse<never> }
  > {
    const res = await this.send(new URL(SNAPSHOT_PATH, this.options.baseUrl), {
      method: 'GET',
      headers: this.authHeaders(),
    });
    if (res.statusCode === 200) return { status: 200, body: res.body };
    return { status: res.statusCode, error: await this.envelopeOf<never>(res) };
  }

  /** PUT /_admin/snapshot: replaces the whole instance with a snapshot (test mode only), sent as it is read. */
  async uploadSnapshot(body: Readable): Promise<ApiResponse<SnapshotSummary>> {
    const res = await this.send(new URL(SNAPSHOT_PATH, this.options.baseUrl), {
      method: 'PUT',
      headers: { ...this.authHeaders(), 'content-type': 'application/gzip' },
      body,
    });
    return this.envelopeOf<SnapshotSummary>(res);
  }

  /**
   * Follows an asynchronous change to its end:
   * - `{ operation: id }`: until the operation succeeded (resolves with it) or failed (rejects
   *   with AcaciaOperationFailedError carrying its error);
   * - `{ workgroup, workspace }`: until the workspace's status is stable (Active, Stopped, Idle
   *   or Failed), or `status` when given (one or several); a workspace that ends Failed
   *   instead rejects with AcaciaWorkspaceFailedError; `status: 'Deleted'` waits until it is
   *   gone (404).
   * Past `timeoutMs` (default 10 minutes) it rejects with AcaciaWaitTimeoutError naming the
   * last state seen, never with a half-done record. `onProgress` sees every state read.
   */
  waitFor(target: { operation: string }, options?: WaitOptions<OperationRecord>): Promise<OperationRecord>;
  waitFor(
    target: { workgroup: string; workspace: string; status: 'Deleted' },
    options?: WaitOptions<WorkspaceRecord>,
  ): Promise<undefined>;
  waitFor(
    target: Extract<WaitTarget, { workspace: string }>,
    options?: WaitOptions<WorkspaceRecord>,
  ): Promise<WorkspaceRecord>;
  waitFor(
    target: WaitTarget,
    options: WaitOptions<WorkspaceRecord> & WaitOptions<OperationRecord> = {},
  ): Promise<OperationRecord | WorkspaceRecord | undefined> {
    return waitForChange(this, target, options, this.options.clock);
  }

  /**
   * Polls a workspace until `until` accepts it (e.g. status Active) or the attempts run out;
   * returns the last record read. A deleted workspace (404) ends the wait with undefined.
   */
  async waitForWorkspace(
    wg: string,
    ws: string,
    until: (w: WorkspaceRecord) => boolean,
    opts: { attempts?: number; intervalMs?: number } = {},
  ): Promise<WorkspaceRecord | undefined> {
    let last: WorkspaceRecord | undefined;
    for (let i = 0; i < (opts.attempts ?? 200); i++) {
      const res = await this.workspaces.get(wg, ws);
      if (res.status === 404) return undefined;
      last = resultOf(res);
      if (until(last)) return last;
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 20));
    }
    return last;
  }

  /** Polls a cloud provider until `until` accepts it or the attempts run out; returns the last record read. */
  async waitForCloudProvider(
    id: string,
    until: (p: CloudProviderRecord) => boolean,
    opts: { attempts?: number; intervalMs?: number } = {},
  ): Promise<CloudProviderRecord> {
    let last = resultOf(await this.cloudProviders.get(id));
    for (let i = 0; i < (opts.attempts ?? 200) && !until(last); i++) {
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 20));
      last = resultOf(await this.cloudProviders.get(id));
    }
    return last;
  }
}

export type { EndpointSpec };
