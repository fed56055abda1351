import { isIP } from "node:net";

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

const V4_PRIVATE: [number, number][] = [
  [0x00000000, 8], // "this" network
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // carrier-grade NAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local, cloud metadata (169.254.169.254)
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // IETF protocol assignments
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // benchmarking
  [0xe0000000, 3], // multicast, reserved, broadcast
];

function v4Number(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

/** Whether an IP address (v4 or v6) is loopback, private, link-local or otherwise not public. */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.toLowerCase();
  if (isIP(address) === 4) {
    const n = v4Number(address);
    return V4_PRIVATE.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
  }
  if (isIP(address) !== 6) return true; // not an address at all: never trusted as public
  // IPv4-mapped (::ffff:10.0.0.1, which the URL parser writes as ::ffff:a00:1).
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mappedHex) {
    const [hi, lo] = [parseInt(mappedHex[1]!, 16), parseInt(mappedHex[2]!, 16)];
    return isPrivateAddress([hi >> 8, hi & 255, lo >> 8, lo & 255].join("."));
  }
  if (address === "::" || address === "::1") return true;
  const first = parseInt(address.split(":")[0] || "0", 16);
  return (
    (first & 0xfe00) === 0xfc00 /* unique local fc00::/7 */ ||
    (first & 0xffc0) === 0xfe80 /* link-local */ ||
    (first & 0xff00) === 0xff00
  ); /* multicast */
}
