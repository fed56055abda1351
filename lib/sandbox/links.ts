import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { cookie } from "./http";
import type { LinkClaim } from "./store";

/**
 * Single-use hosted links (confirmLink 7 days, authorizationLink 48 h; provider-api.md 4.4, 4.7).
 * The first visit claims the link for that browser with a cookie scoped to the link's path and
 * moves on to the flow's own page; any later visit of the link itself, from this browser (Back) or
 * another, shows "already used". The flow's steps check the cookie, so they keep working.
 */

const COOKIE_NAME = "sandbox_link";

/** Claims the link; returns the Set-Cookie header value. */
export function claim(link: LinkClaim, path: string, now: number): string {
  link.token = randomBytes(24).toString("hex");
  link.claimedAt = now;
  return `${COOKIE_NAME}=${link.token}; Path=${path}; HttpOnly; SameSite=Lax`;
}

/** True when this browser opened the link first. */
export function ownsLink(req: IncomingMessage, link: LinkClaim): boolean {
  const given = cookie(req, COOKIE_NAME);
  if (!given || !link.token) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(link.token);
  return a.length === b.length && timingSafeEqual(a, b);
}
