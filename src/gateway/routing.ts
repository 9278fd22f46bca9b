/** Which workspace a data-plane request is for, and the path inside it. */
export interface GatewayRoute {
  workspaceId: string;
  /** The path the workspace sees, without the query. */
  path: string;
}

const PREFIX = /^\/w\/([^/?#]+)(\/[^?#]*)?/;

/**
 * `Host: <workspace_id>.<region>.i.<base domain>` (the workspace's proxy_host) or, for
 * clients that cannot set Host, the path prefix `/w/<workspace_id>/…`. Host wins.
 */
export function routeRequest(host: string | undefined, url: string, baseDomain: string): GatewayRoute | undefined {
  const path = url.replace(/[?#].*$/, '') || '/';
  const name = (host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.i.${baseDomain}`;
  if (name.endsWith(suffix)) {
    const labels = name.slice(0, -suffix.length).split('.');
    if (labels.length === 2 && labels[0]) return { workspaceId: labels[0], path };
  }
  const m = PREFIX.exec(url);
  if (m) return { workspaceId: decodeURIComponent(m[1]!), path: m[2] || '/' };
  return undefined;
}
