import assert from 'node:assert/strict';
import { DATA_PLANE_SECRET_HEADER } from '../../src/dataplane/index.js';

/** A data-plane answer: its status, its text, and that text as JSON (undefined when it is not JSON). */
export interface DataPlaneReply {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface CallOptions {
  /** The data-plane secret to present: the process's own by default, null for none. */
  secret?: string | null;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * Sends requests to a data-plane process as the gateway does, with its secret. `url` is asked at
 * each call, so a test may restart the process. A body that is not a string goes as JSON.
 */
export function dataPlaneCall(url: () => string, secret: string) {
  return async (method: string, urlPath: string, body?: unknown, opts: CallOptions = {}): Promise<DataPlaneReply> => {
    const headers: Record<string, string> = { ...opts.headers };
    const presented = opts.secret === undefined ? secret : opts.secret;
    if (presented !== null) headers[DATA_PLANE_SECRET_HEADER] = presented;
    if (opts.contentType) headers['content-type'] = opts.contentType;
    const res = await fetch(url() + urlPath, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json };
  };
}

export type DataPlaneCaller = ReturnType<typeof dataPlaneCall>;

/** Runs an interpreted query (`INTERPRET QUERY () FOR GRAPH g { … }`) and answers the first object it printed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function interpreted(call: DataPlaneCaller, text: string): Promise<any> {
  const reply = await call('POST', '/gsql/v1/queries/interpret', text);
  assert.equal(reply.status, 200, reply.text);
  return reply.json.results[0];
}
