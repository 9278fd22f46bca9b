import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A parsed range: its canonical text and what a caller's address is matched against. */
export interface Range {
  cidr: string;
  range: [Address, number];
}

export type CidrResult = { ok: true; cidr: string } | { ok: false; reason: string };

/** An IPv4-mapped IPv6 address is the IPv4 address it carries, so IPv4 entries match it. */
function unmap(addr: Address, prefix: number): [Address, number] {
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    return [(addr as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  }
  return [addr, prefix];
}

function parseAddress(text: string): Address | undefined {
  // Only dotted four-part decimal IPv4 ("10.1" or "012.0.0.1" are not addresses people mean).
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text) && !text.includes('%')) return ipaddr.IPv6.parse(text);
  return undefined;
}

const text = (addr: Address) => (addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).toRFC5952String() : addr.toString());

/**
 * Normalises an address or CIDR: a bare address becomes /32 (/128), IPv6 is written in
 * RFC 5952 form, IPv4-mapped IPv6 becomes IPv4; a range with host bits set is refused with
 * the network the caller probably meant.
 */
export function normaliseCidr(input: string): CidrResult {
  const slash = input.indexOf('/');
  const addrText = slash === -1 ? input : input.slice(0, slash);
  const prefixText = slash === -1 ? undefined : input.slice(slash + 1);
  const parsed = parseAddress(addrText);
  if (!parsed) return { ok: false, reason: `"${input}" is not an IPv4 or IPv6 address or CIDR range` };
  const bits = parsed.kind() === 'ipv4' ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))
    return { ok: false, reason: `"${input}" has no valid prefix length (0-${bits})` };
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return { ok: false, reason: `"${input}" has a prefix length over ${bits}` };
  const [addr, length] = unmap(parsed, prefix);
  const network = networkOf(addr, length);
  if (text(network) !== text(addr)) {
    return { ok: false, reason: `${input} has host bits set; did you mean ${text(network)}/${length}?` };
  }
  return { ok: true, cidr: `${text(addr)}/${length}` };
}

function networkOf(addr: Address, prefix: number): Address {
  const cidr = `${addr.toString()}/${prefix}`;
  return addr.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
}

/** Parses a stored (normalised) CIDR. */
export function parseRange(cidr: string): Range {
  return { cidr, range: ipaddr.parseCIDR(cidr) };
}

/** The caller's address as a matchable value; undefined when it is not an address. */
export function parseCaller(ip: string): Address | undefined {
  // A link-local caller may carry a zone (fe80::1%eth0); the zone does not change who it is.
  const bare = ip.replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare);
}

/**
 * An address or range end as the store compares them: the family, and the address's bytes in
 * network order (4 or 16), which both stores order byte by byte (bytea, blob).
 */
export interface StoredAddress {
  family: 4 | 6;
  bytes: Buffer;
}

const stored = (addr: Address): StoredAddress => ({
  family: addr.kind() === 'ipv4' ? 4 : 6,
  bytes: Buffer.from(addr.toByteArray()),
});

/**
 * The first and last address of a stored (normalised) range: an address lies in the range
 * when it has the range's family and its bytes lie between them, what `inRange` decides.
 */
export function rangeBounds(cidr: string): { first: StoredAddress; last: StoredAddress } {
  const [addr, prefix] = ipaddr.parseCIDR(cidr);
  const text = `${addr.toString()}/${prefix}`;
  return addr.kind() === 'ipv4'
    ? {
        first: stored(ipaddr.IPv4.networkAddressFromCIDR(text)),
        last: stored(ipaddr.IPv4.broadcastAddressFromCIDR(text)),
      }
    : {
        first: stored(ipaddr.IPv6.networkAddressFromCIDR(text)),
        last: stored(ipaddr.IPv6.broadcastAddressFromCIDR(text)),
      };
}

/** The caller's address as the store compares it with ranges (see parseCaller); undefined when it is not one. */
export function storedCaller(ip: string): StoredAddress | undefined {
  const addr = parseCaller(ip);
  return addr && stored(addr);
}

/** The caller's address as people write it: an IPv4-mapped IPv6 address shows as IPv4. */
export function displayAddress(ip: string): string {
  return parseCaller(ip)?.toString() ?? ip;
}

/** Whether the address lies in the range (an IPv4 caller never matches an IPv6 range, and the reverse). */
export function inRange(addr: Address, range: Range): boolean {
  return (
    addr.kind() === range.range[0].kind() && addr.match(range.range as [ipaddr.IPv4, number] & [ipaddr.IPv6, number])
  );
}

/** Clients of the addresses seen lately, by address; past this many the memory starts again. */
const CLIENTS_REMEMBERED = 10_000;
const clients = new Map<string, string | undefined>();

/**
 * Who a connection or a login attempt counts against: an IPv4 address, or an IPv6 /64 (one
 * subscriber's network; a client owning a /64 could otherwise act from 2^64 addresses).
 * Undefined for an address that cannot be read (a socket already gone).
 */
export function clientOf(remoteAddress: string | undefined): string | undefined {
  if (remoteAddress === undefined) return undefined;
  // Parsing the address was a third of the gateway's admission once its version check was
  // cheap, and it is asked again for every request of a connection.
  if (clients.has(remoteAddress)) return clients.get(remoteAddress);
  const addr = parseCaller(remoteAddress);
  const client = !addr
    ? undefined
    : addr.kind() === 'ipv4'
      ? addr.toString()
      : `${(addr as ipaddr.IPv6).parts
          .slice(0, 4)
          .map((p) => p.toString(16))
          .join(':')}::/64`;
  if (clients.size >= CLIENTS_REMEMBERED) clients.clear();
  clients.set(remoteAddress, client);
  return client;
}
