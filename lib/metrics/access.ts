import { createHash, timingSafeEqual } from "node:crypto";
import { clientIp } from "../http/client-address";

/**
 * Who may read the metrics: a scraper with METRICS_TOKEN as its bearer token, or anyone on this
 * machine. They name routes, volumes and the outbox's state: nothing of a payer's, but nothing
 * for the internet either (ADR 33).
 */
export function mayReadMetrics(headers: Headers, token: string | undefined, trustedProxyHops: number): boolean {
  const given = headers
    .get("authorization")
    ?.match(/^Bearer\s+(.+)$/i)?.[1]
    ?.trim();
  if (token !== undefined && given !== undefined && sameSecret(given, token)) return true;
  return fromThisMachine(headers, trustedProxyHops);
}

/** Compared as digests: equal lengths for timingSafeEqual, and no time told away about the token. */
function sameSecret(given: string, token: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * The client's address (as lib/http/client-address.ts finds it behind TRUSTED_PROXY_HOPS) is a
 * loopback one. With no trusted proxy, X-Forwarded-For names only loopback addresses (`next start`
 * sets it to the socket's address when a request has none): any other entry, or a Forwarded
 * header, is a proxy on this machine passing on someone else's request, whose address the socket
 * does not show. Refused.
 */
function fromThisMachine(headers: Headers, trustedProxyHops: number): boolean {
  if (trustedProxyHops === 0) {
    const chain = (headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim());
    if (headers.has("forwarded") || !chain.every((a) => a === "" || loopback(a))) return false;
  }
  return loopback(clientIp(headers, trustedProxyHops));
}

function loopback(address: string): boolean {
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || v4 === "::1";
}
