/** Which workspace a data-plane request is for, and the path inside it. */
export interface GatewayRoute {
  workspaceId: string;
  /** The path the workspace sees, without the query. */
  path: string;
}

const PREFIX = /^\/w\/([^/?#]+)(\/[^?#]*)?/;

/**
 * `Host: <workspace_id>.<region>.i.<base domain>` (the workspace's proxy_host) or, for
 * clients that cannot set Host, the path prefix `/w/<workspace_id>/…`. Host wins. A request
 * naming neither goes to `defaultWorkspace` when one is set: a client that knows only a host
 * and port, such as a test suite written for one local TigerGraph server, still reaches one.
 */
export function routeRequest(
  host: string | undefined,
  url: string,
  baseDomain: string,
  defaultWorkspace?: string,
): GatewayRoute | undefined {
  // Cut at the first `?` or `#`: `/[?#].*$/` would try again after each one when the rest
  // holds a line break, which `.` does not match — quadratic in the URL's length.
  const end = url.search(/[?#]/);
  const path = (end < 0 ? url : url.slice(0, end)) || '/';
  const name = (host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.i.${baseDomain}`;
  if (name.endsWith(suffix)) {
    const labels = name.slice(0, -suffix.length).split('.');
    if (labels.length === 2 && labels[0]) return { workspaceId: labels[0], path };
  }
  const m = PREFIX.exec(url);
  if (m) return { workspaceId: decodeURIComponent(m[1]!), path: m[2] || '/' };
  return defaultWorkspace === undefined ? undefined : { workspaceId: defaultWorkspace, path };
}

/**
 * The query of a request's URL: after the first `?`, up to a fragment; '' when there is none.
 * Found by index: a pattern `#.*$` would try again after each `#` when a line break follows.
 */
export function queryOf(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return '';
  const fragment = url.indexOf('#', at + 1);
  return url.slice(at + 1, fragment < 0 ? undefined : fragment);
}
