import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalid } from './errors.js';

/**
 * Addresses a webhook may not reach unless the server allows it: loopback, private,
 * shared (CGNAT), link-local (cloud metadata services live there: 169.254.169.254,
 * fd00:ec2::254), multicast and reserved ranges. BlockList matches an IPv4-mapped IPv6
 * address (::ffff:127.0.0.1) by the IPv4 rules, so that way around them is closed too.
 */
const refused = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  refused.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  refused.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is one a webhook may not reach by default. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
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

/**
 * Every address the URL's host names now; refused (400 naming `url`) when it names none, or
 * a private one and private targets are not allowed. Called at creation; the deliverer
 * checks the addresses it connects to again, since DNS answers change.
 */
export async function checkTarget(url: URL, allowPrivate: boolean): Promise<void> {
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw invalid('url', `has a host, ${host}, that does not resolve`);
    }
  }
  if (!allowPrivate && addresses.some(isPrivateAddress))
    throw invalid('url', 'targets a loopback, private, link-local or metadata address, which this server refuses');
}
