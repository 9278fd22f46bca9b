import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { DbIdentity } from '../domain/db-credentials.js';
import type { WorkspaceToAdmit } from '../store/repositories/admission.js';

/**
 * A request the gateway admitted (allow list, database-user credentials, an Active
 * workspace) and does not answer itself: everything but the handshake. The credentials
 * have been checked and are not passed on.
 */
export interface BackendRequest {
  method: string;
  /** The path inside the workspace: routing's `/w/<id>` prefix removed, as the client sent it otherwise. */
  path: string;
  /** The query string without `?`; empty when there is none. */
  query: string;
  /** The client's headers without Authorization, Host, Content-Length, Expect and hop-by-hop headers. */
  headers: IncomingHttpHeaders;
  /**
   * The body: read whole (at most the gateway's body limit) for what the gateway inspects,
   * the client's stream for everything else; undefined when there is none.
   */
  body: Buffer | Readable | undefined;
  /** The database user the request was admitted as, and how it proved it. */
  identity: BackendIdentity;
}

/**
 * Who a backend request acts as: nothing of the credential itself. The console's requests come with the
 * caller's API key (`api-key`: the user and the key's name) rather than a database user's credentials.
 */
export type BackendIdentity = Pick<DbIdentity, 'orgId' | 'workspaceId' | 'userId' | 'username'> & {
  via: DbIdentity['via'] | 'api-key';
};

/** What the workspace answered: sent to the client as it is. */
export interface BackendResponse {
  status: number;
  headers?: Record<string, string | string[]>;
  /** An object is sent as JSON; a stream is piped (large REST++ lists). */
  body: Buffer | string | Readable | Record<string, unknown>;
}

/**
 * The non-handshake part of a workspace's data plane, one per driver: the simulated
 * driver's answers that it holds no graph data; the local driver's proxies to the
 * workspace's data-plane process. The gateway calls it only for an admitted request to an
 * Active workspace.
 */
export interface WorkspaceBackend {
  serve(request: BackendRequest, workspace: WorkspaceToAdmit): Promise<BackendResponse>;
  /** Releases connections when the gateway stops. */
  close?(): Promise<void>;
}

/** Headers that describe one connection or one hop, not the request or answer they travel with. */
export const hopByHop: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Hop-by-hop headers, and those the gateway consumed. */
const notForwarded = new Set([...hopByHop, 'authorization', 'host', 'content-length', 'expect', 'proxy-authorization']);

/**
 * The request a backend is given for a client's: its headers without those above, and of its
 * credentials only who they proved it to be.
 */
export function backendRequestOf(
  request: Pick<BackendRequest, 'method' | 'path' | 'query' | 'headers' | 'body'>,
  identity: DbIdentity,
): BackendRequest {
  const { orgId, workspaceId, userId, username, via } = identity;
  return {
    ...request,
    headers: forwardedHeaders(request.headers),
    identity: { orgId, workspaceId, userId, username, via },
  };
}

/** The headers a backend may see. */
export function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!notForwarded.has(name)) out[name] = value;
  return out;
}
