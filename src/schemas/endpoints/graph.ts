import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { GraphAnswer, GraphRequestBody } from '../graph-request.js';
import { WorkspaceParams } from '../workspace.js';
import { endpoint } from './spec.js';

export const graphEndpoints = {
  graphRequest: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/workgroups/{workgroupID}/workspaces/{workspaceID}/graph/request`,
    summary: "Send a request to the workspace's graph",
    description:
      "The console's way to the workspace's data plane, with the caller's API key instead of database-user " +
      'credentials. Only these requests pass: reading the schema (`GET /gsql/v1/schema/graphs[/{graph}]`) and ' +
      "the types' counts (`POST /restpp/builtins/{graph}`), open to every key of the organisation like every read; " +
      'and GSQL statements (`POST /gsql/v1/statements`) and queries (`GET /restpp/query/{graph}/{query}`, ' +
      '`POST /gsql/v1/queries/interpret`), which may change the schema and the data and so need a key that may ' +
      "edit the workspace. The Result is the data plane's answer, whatever its status; a workspace whose driver " +
      'holds no graph data answers status 501, code `no-graph-data`.',
    tags: ['Workspaces'],
    params: WorkspaceParams,
    body: Ref(GraphRequestBody),
    result: Ref(GraphAnswer),
    errors: [403, 404, 503],
    client: 'workspaces.graphRequest',
  }),
} as const;
