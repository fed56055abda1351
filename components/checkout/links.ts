import { httpUrl } from "./http-url";

// httpUrl lives apart (http-url.ts): the checkout page's own code needs only that, and so does not
// carry this, which only the server and the landing use.

/**
 * The merchant's return URL with `checkout=<id>` added last to its query (before any #fragment), or
 * null if it is not an http(s) URL. The merchant's own text is kept byte for byte: re-encoding its
 * query (URLSearchParams writes `%20` as `+`, `flag` as `flag=`) would break a signed URL.
 */
export function shopLink(returnUrl: string, checkoutId: string): string | null {
  if (!httpUrl(returnUrl)) return null;
  const hash = returnUrl.indexOf("#");
  const base = hash === -1 ? returnUrl : returnUrl.slice(0, hash);
  const fragment = hash === -1 ? "" : returnUrl.slice(hash);
  const joiner = !base.includes("?") ? "?" : /[?&]$/.test(base) ? "" : "&";
  return `${base}${joiner}checkout=${encodeURIComponent(checkoutId)}${fragment}`;
}
