import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { hashKey } from '../src/domain/api-keys.js';
import { loadViewById, loadWorkspaceView, workgroupRecord, workspaceRecord } from '../src/domain/records.js';
import { loadConfig } from '../src/config.js';
import { API_PREFIX } from '../src/schemas/envelope.js';
import { openStore, type Store } from '../src/store/store.js';
import { components } from '../src/schemas/component.js';
import { apiEndpoints } from '../src/schemas/endpoints/index.js';
import { Envelope } from '../src/schemas/envelope.js';
import fastJson from 'fast-json-stringify';
import type { TSchema } from '@sinclair/typebox';
import { CompiledQuery } from 'kysely';
import { listenForParent } from './forked-server.js';

/**
 * The least a server must do to answer Acacia's two hot reads correctly, for the benchmark to
 * measure Acacia against: node:http, the API key looked up on every request by a prepared
 * statement (revoked and expired keys refused), the record read with the same one statement
 * and built by the same code, serialised by fast-json-stringify from the same schema (its
 * key order is the schema's). No framework, no validation, no hooks, no logging, no metrics:
 * what Acacia costs beyond this is theirs.
 * Started with Acacia's environment (store and config); answers on the port it reports to its
 * parent over IPC. Responses are byte-identical to Acacia's for the same `x-request-id`
 * (the benchmark checks it before measuring).
 */

const config = loadConfig();
const store: Store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });

interface KeyRow {
  org_id: string;
  org_name: string;
  revoked_at: number | null;
  expires_at: number | string | null;
}

const KEY_SQL = `select k.org_id, o.name as org_name, k.revoked_at, k.expires_at
from api_keys k join organisations o on o.id = k.org_id where k.key_hash = `;

async function keyOf(plaintext: string): Promise<KeyRow | undefined> {
  const hash = hashKey(plaintext);
  if (store.committedReads) return store.committedReads.statement(`${KEY_SQL}?`).get(hash) as KeyRow | undefined;
  const { rows } = await store.db.executeQuery<KeyRow>(
    CompiledQuery.raw(`/* prepared:minimal_key_by_hash */ ${KEY_SQL}$1`, [hash]),
  );
  return rows[0];
}

const external = Object.fromEntries(components());
const serialiser = (result: TSchema) =>
  fastJson(Envelope(result) as fastJson.AnySchema, {
    schema: external as unknown as Record<string, fastJson.Schema>,
  }) as (envelope: unknown) => string;
const serialise = {
  workgroup: serialiser(apiEndpoints.getWorkgroup.result),
  workspace: serialiser(apiEndpoints.getWorkspace.result),
};

const WORKGROUP = new RegExp(`^${API_PREFIX}/workgroups/([^/?]+)(?:/workspaces/([^/?]+))?/?$`);
const recordContext = { catalog: config.catalog, baseDomain: config.baseDomain, ipAllowed: () => true };

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  result: unknown,
  ok?: { etag: number; serialise: (envelope: unknown) => string },
): void {
  const requestId = String(req.headers['x-request-id'] ?? '');
  const body = ok
    ? ok.serialise({ Error: false, ErrorDetails: [], Message: 'OK', RequestID: requestId, Result: result })
    : JSON.stringify({ Error: true, Message: String(result), RequestID: requestId });
  const etag = ok?.etag;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(etag !== undefined ? { etag: `"${etag}"` } : {}),
  });
  res.end(body);
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const match = req.method === 'GET' ? WORKGROUP.exec(req.url ?? '') : null;
  if (!match) return send(req, res, 404, 'no such route');
  const plaintext = req.headers['x-api-key'];
  const key = typeof plaintext === 'string' ? await keyOf(plaintext) : undefined;
  if (!key || key.revoked_at !== null || (key.expires_at !== null && Number(key.expires_at) <= Date.now()))
    return send(req, res, 401, 'unauthorized');
  const org = { orgId: key.org_id, orgName: key.org_name };
  const [, workgroupId, workspaceId] = match;
  if (workspaceId === undefined) {
    const view = await loadViewById(store.db, org, workgroupId!);
    if (!view) return send(req, res, 404, 'no such workgroup');
    const etag = view.workgroup.version_number;
    return send(req, res, 200, workgroupRecord(view, recordContext), { etag, serialise: serialise.workgroup });
  }
  const found = await loadWorkspaceView(store.db, org, workgroupId!, workspaceId);
  if (!found?.ws) return send(req, res, 404, 'no such workspace');
  const record = workspaceRecord(found.ws, found.view, recordContext);
  send(req, res, 200, record, { etag: found.ws.version_number, serialise: serialise.workspace });
}

const server = createServer((req, res) => {
  answer(req, res).catch((err: Error) => send(req, res, 500, err.message));
});

listenForParent(server, () => store.close());
