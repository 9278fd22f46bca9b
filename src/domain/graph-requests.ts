import type { Readable } from 'node:stream';
import type { Workspace } from '../store/repositories/workspaces.js';
import { invalid } from './errors.js';

/** What a console request to a workspace's graph does: read the schema and counts, or run GSQL. */
export type GraphRequestKind = 'read' | 'run';

const name = '[A-Za-z_][A-Za-z0-9_]*';

// The requests the console sends, and nothing else: the data plane's other endpoints stay behind the
// gateway's database-user credentials. Each path segment is an identifier, so no path leaves these.
const allowed: ReadonlyArray<{ method: 'GET' | 'POST'; path: RegExp; kind: GraphRequestKind }> = [
  { method: 'GET', path: new RegExp(`^/gsql/v1/schema/graphs(/${name})?$`), kind: 'read' },
  { method: 'POST', path: new RegExp(`^/restpp/builtins/${name}$`), kind: 'read' },
  { method: 'POST', path: /^\/gsql\/v1\/statements$/, kind: 'run' },
  { method: 'GET', path: new RegExp(`^/restpp/query/${name}/${name}$`), kind: 'run' },
  { method: 'POST', path: /^\/gsql\/v1\/queries\/interpret$/, kind: 'run' },
];

/** The request's kind; Invalid (naming `path`) for a request the console may not send. */
export function graphRequestKind(method: string, path: string): GraphRequestKind {
  const match = allowed.find((a) => a.method === method && a.path.test(path));
  if (!match)
    throw invalid(
      'path',
      `${method} ${path} is not a request the console sends to a graph: read the schema or counts, or run GSQL`,
    );
  return match.kind;
}

/** A console request to a workspace's data plane, for the key's user. */
export interface GraphDataRequest {
  method: 'GET' | 'POST';
  path: string;
  /** Without `?`; empty when there is none. */
  query: string;
  body: Buffer | undefined;
  orgId: string;
  userId: string;
  /** The API key's name: who the data plane's log names. */
  keyName: string;
}

/** What the data plane answered: the status, its headers and the body (a stream for a long one). */
export interface GraphDataAnswer {
  status: number;
  headers?: Record<string, string | string[]>;
  body: Buffer | string | Readable | Record<string, unknown>;
}

/** Sends a console request to the workspace's data plane: the gateway's backend, passed in from above. */
export type GraphBackend = (request: GraphDataRequest, ws: Workspace) => Promise<GraphDataAnswer>;
