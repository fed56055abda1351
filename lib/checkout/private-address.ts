import { BlockList, isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { ipv6Groups } from "../http/client-address";

/**
 * Whether a merchant URL's host is this machine or a private network: what a stranger who can
 * create checkouts must not make our server call (SSRF). Names are judged as written (a URL's
 * hostname, already normalised by the URL parser: "0x7f.1" is "127.0.0.1"); the notifier judges
 * the addresses a public-looking name resolves to as well, when it connects.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  if (isIP(host)) return isPrivateAddress(host);
  // A name without a dot only resolves on a local network ("shop-backend", "metadata").
  if (!host.includes(".")) return true;
  return /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/.test(host);
}

// Special-purpose ranges (IANA's registries) that are no one's public address.
const V4_PRIVATE: [string, number][] = [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1), and so on below
  ["192.88.99.0", 24], // 6to4 relays
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 3], // multicast, reserved, broadcast
];
const V6_PRIVATE: [string, number][] = [
  ["::", 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 32], // Teredo
  ["2001:2::", 48], // benchmarking
  ["2001:10::", 28], // ORCHID
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];
const privateRanges = new BlockList();
for (const [net, bits] of V4_PRIVATE) privateRanges.addSubnet(net, bits, "ipv4");
for (const [net, bits] of V6_PRIVATE) privateRanges.addSubnet(net, bits, "ipv6");

const v4Of = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");

/**
 * The IPv4 address an IPv6 one carries to the IPv4 internet, if any: IPv4-mapped (::ffff:0:0/96),
 * NAT64 (64:ff9b::/96) and 6to4 (2002::/16). Each reaches that IPv4 address, so it is judged as one.
 */
function embeddedV4(g: number[]): string | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const mapped = mappedV4(g);
  if (mapped !== null) return mapped;
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!);
  return null;
}

/** The IPv4 address of an IPv4-mapped IPv6 one (::ffff:0:0/96, a dual-stack socket's), if it is one. */
function mappedV4(g: number[]): string | null {
  return g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff ? v4Of(g[6]!, g[7]!) : null;
}

/** One spelling per address: IPv4 dotted, IPv6 as eight groups (an IPv4-mapped one as its IPv4). */
function canonical(ip: string): string {
  if (isIP(ip) === 4) return ip;
  const g = ipv6Groups(ip);
  return mappedV4(g) ?? g.map((x) => x.toString(16)).join(":");
}

/** The addresses of a machine's network interfaces (os.networkInterfaces()), one spelling each. */
export function ownAddressesOf(
  interfaces: Record<string, readonly { address: string }[] | undefined>,
): ReadonlySet<string> {
  return new Set(
    Object.values(interfaces)
      .flatMap((list) => list ?? [])
      .map((i) => i.address.replace(/%.*$/, ""))
      .filter((a) => isIP(a))
      .map(canonical),
  );
}

// Asking the kernel costs ~40 µs; an address added to an interface is seen within 10 s.
let ownCache: { set: ReadonlySet<string>; until: number } | null = null;
function ownAddresses(): ReadonlySet<string> {
  if (!ownCache || Date.now() > ownCache.until)
    ownCache = { set: ownAddressesOf(networkInterfaces()), until: Date.now() + 10_000 };
  return ownCache.set;
}

/**
 * Whether an IP address (v4 or v6) is not a public address of another machine: loopback, private,
 * link-local, special-purpose, or one of this machine's own (whatever network it is on, a call
 * to it reaches our own services).
 */
export function isPrivateAddress(ip: string, own: ReadonlySet<string> = ownAddresses()): boolean {
  const address = ip.toLowerCase();
  const kind = isIP(address);
  if (kind === 0) return true; // not an address at all: never trusted as public
  if (own.has(canonical(address))) return true;
  if (kind === 4) return privateRanges.check(address, "ipv4");
  const v4 = embeddedV4(ipv6Groups(address));
  if (v4 !== null) return isPrivateAddress(v4, own);
  return privateRanges.check(address, "ipv6");
}
