import { isUpload, UPLOAD_LIMIT } from '../dataplane/data-folder.js';
import type { DbIdentity } from '../domain/db-credentials.js';
import type { GatewayService } from '../domain/gateway.js';
import type { WorkspaceToAdmit } from '../store/repositories/admission.js';
import { credentialsFrom } from './credentials.js';
import type { HandshakeMatch } from './handshake.js';
import { announcedTooLarge, bodyTooLarge } from './request-body.js';
import type { GatewayRoute } from './routing.js';

/** A request as admission sees it: where it goes and what it brings, not yet its body. */
export interface Arrival {
  method: string;
  route: GatewayRoute;
  /** The route's path without duplicate or trailing slashes. */
  normalised: string;
  handshake: HandshakeMatch | undefined;
  /** The client's address (through trusted proxies, when there are any). */
  ip: string;
  authorization: string | undefined;
  contentLength: string | undefined;
}

/** What admission found, for what serves the request. */
export interface Admitted {
  ws: WorkspaceToAdmit;
  path: string;
  /** Undefined on the token routes, which take their credential from the body. */
  identity: DbIdentity | undefined;
  handshake: HandshakeMatch | undefined;
  /** The most bytes of body this request may send. */
  limit: number;
}

/**
 * Admits a request before its body is read, so a refused one is answered without reading
 * (or, with Expect: 100-continue, inviting) it: the allow list, the credentials, the
 * workspace's state, and a body announced over the limit (413). The token routes take their
 * credential (a secret) from the body, so they are admitted by address only until then.
 * Throws the refusal.
 */
export async function admit(gateway: GatewayService, bodyLimit: number, arrival: Arrival): Promise<Admitted> {
  const { handshake, ip } = arrival;
  const ws = await gateway.locate(arrival.route.workspaceId, ip);
  let identity: DbIdentity | undefined;
  // A method the route does not take is refused after the usual authentication.
  if (!(handshake?.allowed && handshake.route.credentialsInBody)) {
    identity = await gateway.authenticate(ws, ip, credentialsFrom(arrival.authorization));
    await gateway.ready(ws);
  }
  // An upload to a loading job may be larger than other bodies: the workspace writes it to disk.
  const limit = isUpload(arrival.method, arrival.normalised) ? UPLOAD_LIMIT : bodyLimit;
  if (announcedTooLarge(arrival.contentLength, limit)) throw bodyTooLarge(limit);
  return { ws, path: arrival.route.path, identity, handshake, limit };
}
