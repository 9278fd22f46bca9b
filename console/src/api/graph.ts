import { api } from './endpoints.js';

/** What the workspace's data plane answered to one console request (the API's GraphAnswer). */
export interface DataPlaneAnswer {
  status: number;
  text: string;
  truncated: boolean;
}

/** TigerGraph's JSON answers: `error`, `message`, and the payload under `results` (or `graphs`). */
export interface TigerGraphJson {
  error?: boolean;
  code?: string;
  message?: string;
  results?: unknown;
  graphs?: unknown;
}

/** The answer's JSON, or undefined when it is not JSON (GSQL's printed output). */
export function jsonOf(answer: DataPlaneAnswer): TigerGraphJson | undefined {
  try {
    const parsed: unknown = JSON.parse(answer.text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as TigerGraphJson) : undefined;
  } catch {
    return undefined;
  }
}

/** A refusal of the data plane, with TigerGraph's code and message when it sent them. */
export class DataPlaneError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'DataPlaneError';
  }
}

/** The answer's JSON when it is a success; a DataPlaneError naming TigerGraph's code and message otherwise. */
export function successJson(answer: DataPlaneAnswer): TigerGraphJson {
  const json = jsonOf(answer);
  if (answer.status >= 200 && answer.status < 300 && json && json.error !== true) return json;
  throw new DataPlaneError(answer.status, json?.code, json?.message ?? (answer.text || `HTTP ${answer.status}`));
}

/** The requests the console sends to one workspace's graph, through the API (POST …/graph/request). */
export function graphClient(workgroupId: string, workspaceId: string) {
  const send = (method: 'GET' | 'POST', path: string, query?: string, body?: string) =>
    api.workspaces.graphRequest(workgroupId, workspaceId, {
      method,
      path,
      ...(query ? { query } : {}),
      ...(body !== undefined ? { body } : {}),
    }) as Promise<DataPlaneAnswer>;
  const graphPath = (g: string) => encodeURIComponent(g);
  return {
    graphs: () => send('GET', '/gsql/v1/schema/graphs'),
    schema: (graph: string) => send('GET', `/gsql/v1/schema/graphs/${graphPath(graph)}`),
    vertexCounts: (graph: string) =>
      send('POST', `/restpp/builtins/${graphPath(graph)}`, '', '{"function":"stat_vertex_number","type":"*"}'),
    edgeCounts: (graph: string) =>
      send('POST', `/restpp/builtins/${graphPath(graph)}`, '', '{"function":"stat_edge_number","type":"*"}'),
    statements: (graph: string | undefined, text: string) =>
      send('POST', '/gsql/v1/statements', graph ? `graph=${encodeURIComponent(graph)}` : '', text),
    installed: (graph: string, name: string, params: string) =>
      send('GET', `/restpp/query/${graphPath(graph)}/${encodeURIComponent(name)}`, params),
    interpret: (text: string, params: string) => send('POST', '/gsql/v1/queries/interpret', params, text),
  };
}

export type GraphClient = ReturnType<typeof graphClient>;
