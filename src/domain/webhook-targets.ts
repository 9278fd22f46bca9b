import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { invalid } from './errors.js';

/** Every address a host name stands for now. */
export type ResolveHost = (host: string) => Promise<string[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), as connections use it. */
export const resolveByDns: ResolveHost = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/** IANA's global unicast space; the rest of IPv6 is reserved, local or not allocated. */
const GLOBAL_IPV6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the IPv4 address it reaches is its last 32 bits. */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * Whether a webhook may connect to an address by default: only a global unicast one, the
 * rule being what ipaddr.js knows of the special-purpose registries (its range() is
 * 'unicast') and, for IPv6, inside 2000::/3. Everything else is refused: loopback, private,
 * shared, link-local (where cloud metadata services answer), multicast, documentation,
 * benchmarking, Teredo, 6to4, ORCHID, discard, site-local, the IPv4-compatible ::/96, and
 * any form ipaddr.js does not parse. An IPv6 address that reaches an IPv4 one by a rule any
 * host applies, IPv4-mapped (::ffff:0:0/96) or NAT64's well-known 64:ff9b::/96, is judged
 * by that IPv4 address; the local-use NAT64 prefix 64:ff9b:1::/48 embeds it where its
 * operator chose, so it is refused whole.
 */
export function isGlobalUnicast(address: string): boolean {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address).range() === 'unicast';
  // A zone (fe80::1%eth0) names an interface of this host: never global.
  if (address.includes('%') || !ipaddr.IPv6.isValid(address)) return false;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return isGlobalUnicast(v6.toIPv4Address().toString());
  if (v6.match(NAT64)) return isGlobalUnicast(new ipaddr.IPv4(v6.toByteArray().slice(12)).toString());
  return v6.range() === 'unicast' && v6.match(GLOBAL_IPV6);
}

/** The host of a URL as an address or a name (IPv6 without its brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The URL if it is one a webhook may have (http or https, no credentials), else 400 naming `url`. */
export function webhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url', 'is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url', 'must be an http or https URL');
  if (url.username || url.password) throw invalid('url', 'must not carry credentials');
  if (!hostOf(url)) throw invalid('url', 'has no host');
  if (url.href.length > 2048) throw invalid('url', 'must be at most 2048 characters long');
  return url;
}

/** Why a host may not be reached now; the message completes "the URL …" and names no address. */
export class TargetRefused extends Error {}

/**
 * The addresses `host` (an address or a name) stands for now, when a webhook may reach every
 * one of them: global unicast, or any address where the server allows private targets
 * (ACACIA_WEBHOOK_ALLOW_PRIVATE). Otherwise TargetRefused. The one rule for both moments a
 * target is judged: the webhook's creation and each delivery's connection (DNS answers
 * change, so the deliverer connects only to the addresses judged here).
 */
export async function allowedAddresses(host: string, allowPrivate: boolean, resolve: ResolveHost): Promise<string[]> {
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw new TargetRefused(`has a host, ${host}, that does not resolve`);
  }
  if (!allowPrivate && !addresses.every(isGlobalUnicast))
    throw new TargetRefused(
      'targets an address that is not global unicast (loopback, private, link-local, metadata, ' +
        'documentation or otherwise reserved), which this server refuses',
    );
  return addresses;
}

/** Refuses (400 naming `url`) a URL whose host a webhook may not reach now. */
export async function checkTarget(url: URL, allowPrivate: boolean, resolve: ResolveHost): Promise<void> {
  try {
    await allowedAddresses(hostOf(url), allowPrivate, resolve);
  } catch (err) {
    if (err instanceof TargetRefused) throw invalid('url', err.message);
    throw err;
  }
}
