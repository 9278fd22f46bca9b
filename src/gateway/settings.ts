import type { ConnectionSettings } from '../listener/connection-limits.js';
import type { ListenerTimeouts } from '../listener/listener-limits.js';

/** What the gateway's listener is configured with (src/config.ts): its own settings and every listener's. */
export interface GatewaySettings extends ListenerTimeouts, ConnectionSettings {
  /** The largest request body (bytes). */
  bodyLimit: number;
  /** The domain of workspaces' proxy_host names, by which a request names its workspace. */
  baseDomain: string;
  /** The workspace a request naming none goes to (a developer setting); unset, such requests are 404. */
  gatewayDefaultWorkspace?: string;
}
