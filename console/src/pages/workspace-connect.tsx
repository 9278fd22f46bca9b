import { api } from '../api/endpoints.js';
import { useConsoleConfig } from '../api/config.js';
import type { WorkspaceRecord } from '../api/types.js';
import { useWorkspaceRecords } from '../ui/data.js';
import { CodeBlock, Copyable } from '../ui/copy.js';
import { Section } from '../ui/page.js';

/** Written where a secret goes: the console never knows a database user's password. */
export const PASSWORD_PLACEHOLDER = '<password>';

/**
 * The workspace's endpoint on this server's gateway: `<gateway>/w/<id>/` (path routing, for
 * clients that cannot set Host). Undefined until the console config names the gateway.
 */
export function workspaceGatewayUrl(gatewayUrl: string | null | undefined, workspaceId: string): string | undefined {
  return gatewayUrl ? `${gatewayUrl.replace(/\/+$/, '')}/w/${encodeURIComponent(workspaceId)}/` : undefined;
}

/** A string as one shell word in single quotes (a password may hold anything). */
const shellWord = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** A string as a Python string literal. */
const pyString = (s: string) => JSON.stringify(s);

function curlExample(endpoint: string, username: string): string {
  return `curl -s -u ${shellWord(`${username}:${PASSWORD_PLACEHOLDER}`)} ${shellWord(`${endpoint}restpp/echo`)}`;
}

/**
 * pyTigerGraph drops any path from `host`, so it names the workspace by its proxy_host (Host
 * routing) on the gateway's port, for REST++ and GSQL alike (docs/data-plane.md).
 */
function pyTigerGraphExample(proxyHost: string, gatewayUrl: string, username: string): string {
  const url = new URL(gatewayUrl);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return [
    'from pyTigerGraph import TigerGraphConnection',
    '',
    'conn = TigerGraphConnection(',
    `    host=${pyString(`${url.protocol}//${proxyHost}`)},`,
    '    graphname="MyGraph",',
    `    username=${pyString(username)},`,
    `    password=${pyString(PASSWORD_PLACEHOLDER)},`,
    `    restppPort=${pyString(port)},`,
    `    gsPort=${pyString(port)},`,
    ')',
    'print(conn.echo())',
  ].join('\n');
}

/** How a client reaches the workspace: its id, endpoint, host and examples that work as shown. */
export function ConnectSection({ ws }: { ws: WorkspaceRecord }) {
  const config = useConsoleConfig();
  const users = useWorkspaceRecords(ws, 'db_user', api.dbUsers.list);
  const id = ws.workspace_id ?? '';
  const endpoint = workspaceGatewayUrl(config?.gateway_url, id);
  const firstUser = users.data?.[0]?.username;
  const username = firstUser ?? '<database user>';
  return (
    <Section title="Connect">
      <div className="connect" data-testid="connect">
        <dl className="facts">
          <div>
            <dt>Workspace id</dt>
            <dd>
              <Copyable text={id} label="the id" testId="connect-id" />
            </dd>
          </div>
          <div>
            <dt>Gateway URL</dt>
            <dd>
              {endpoint ? (
                <Copyable text={endpoint} label="the gateway URL" testId="connect-gateway-url" />
              ) : config ? (
                'This server runs no gateway.'
              ) : (
                '—'
              )}
            </dd>
          </div>
          <div>
            <dt>Host</dt>
            <dd>
              <Copyable text={ws.proxy_host} label="the host" testId="connect-host" />
            </dd>
          </div>
        </dl>
        {endpoint && config?.gateway_url ? (
          <>
            <p className="muted connect-note">
              {firstUser
                ? `As the database user ${firstUser}; put its password in place of ${PASSWORD_PLACEHOLDER}.`
                : `Add a database user below, then put its name and password in place of the placeholders.`}
            </p>
            <h3>curl</h3>
            <CodeBlock code={curlExample(endpoint, username)} label="curl command" testId="connect-curl" />
            <h3>pyTigerGraph</h3>
            <CodeBlock
              code={pyTigerGraphExample(ws.proxy_host, config.gateway_url, username)}
              label="pyTigerGraph snippet"
              testId="connect-python"
            />
            <p className="muted connect-note">
              pyTigerGraph names the workspace by its host, which must resolve to the gateway&apos;s address (for a
              gateway on this machine, the <code>/etc/hosts</code> line <code>127.0.0.1 {ws.proxy_host}</code>). Graph
              calls need a workspace with a data plane (<code>ACACIA_DRIVER=local</code>).
            </p>
          </>
        ) : null}
      </div>
    </Section>
  );
}
