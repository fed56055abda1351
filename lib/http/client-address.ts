import { isIP } from "node:net";
import { env } from "../env";

/**
 * The client's address, for rate limits and for the payer's IP that the provider asks for.
 *
 * Behind N trusted proxies (TRUSTED_PROXY_HOPS), each appends the address it was connected from
 * to X-Forwarded-For, so the Nth entry from the right is the address the outermost of them saw:
 * anything to its left is whatever the client wrote. With no proxy (0, the default) only the
 * socket's address is true, and `next start` hides it when the client sends X-Forwarded-For (it
 * sets that header only when absent), so the server stamps the socket address into PEER_HEADER
 * on every request, overwriting whatever the client sent under that name (stampPeerAddress).
 */

export const PEER_HEADER = "x-checkout-peer";

export function clientIp(headers: Headers, hops: number = env().trustedProxyHops): string {
  const peer = headers.get(PEER_HEADER) ?? undefined;
  if (hops > 0) {
    const chain = (headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    // Shorter than the proxies configured: the request skipped them; trust only the socket.
    if (chain.length >= hops) return normalise(chain[chain.length - hops]!);
  }
  return normalise(peer ?? "unknown");
}

/**
 * What a per-client rate limit counts: the client's IPv4 address, or the /64 its IPv6 address is in.
 * A subscriber is given a whole /64 (or more), so counting single IPv6 addresses would let one
 * client make 2^64 fresh starts.
 */
export function clientKey(headers: Headers, hops?: number): string {
  const address = clientIp(headers, hops);
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address).slice(0, 4);
  return `${groups.map((g) => g.toString(16)).join(":")}::/64`;
}

/** An IPv6 address as its eight 16-bit groups ("::" expanded, a trailing dotted IPv4 read as two). */
export function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const [h, t] = [part(head), part(tail)];
  return tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** "::ffff:203.0.113.9" (IPv4 on a dual-stack socket) is 203.0.113.9. */
function normalise(address: string): string {
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return isIP(v4) === 4 ? v4 : address.toLowerCase();
}

/**
 * Copies each request's socket address into PEER_HEADER before Next.js sees the request. Called
 * once per server from instrumentation.ts; Node's HTTP server announces every request through
 * `emit("request")`, which is looked up on the prototype when called.
 */
export async function stampPeerAddress(): Promise<void> {
  const http = await import("node:http");
  const proto = http.Server.prototype as {
    emit: (event: string, ...args: unknown[]) => boolean;
    __peerStamped?: boolean;
  };
  if (proto.__peerStamped) return;
  proto.__peerStamped = true;
  const emit = proto.emit;
  proto.emit = function (this: unknown, event: string, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as import("node:http").IncomingMessage;
      req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "unknown";
    }
    return emit.call(this, event, ...args);
  };
}
