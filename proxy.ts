import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { commonSecurityHeaders, newNonce, pageCsp } from "@/lib/http/security-headers";

/**
 * Security headers on every page, and a fresh CSP nonce per page request
 * (docs/adr/0010-security-headers.md). Next.js reads the nonce from the request's
 * Content-Security-Policy header and puts it on its own scripts, so the policy is set on the
 * request (for Next) and on the response (for the browser). API routes set theirs in the route
 * wrapper (lib/http/route.ts), without the cost of a proxy pass.
 */
const LANDING = /^\/checkout\/[^/]+\/return$/;

export function proxy(request: NextRequest) {
  const settings = env();
  const common = commonSecurityHeaders(settings.appUrl);
  const nonce = newNonce();
  const csp = pageCsp({ nonce, appUrl: settings.appUrl, providerBaseUrl: settings.pisBaseUrl, dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [k, v] of Object.entries(common)) response.headers.set(k, v);
  response.headers.set("Content-Security-Policy", csp);
  // The landing page may be kept for Back and Forward (revalidated on every load, never in a shared
  // cache); Next's default no-store would keep it out of the back/forward cache. Its status query
  // asks the server again when the page is restored.
  if (LANDING.test(request.nextUrl.pathname)) response.headers.set("Cache-Control", "private, no-cache, max-age=0, must-revalidate");
  return response;
}

export const config = {
  // Static build assets are immutable files with no secrets and no script context: next.config.mjs
  // gives them nosniff. API routes set their own headers. Everything else (pages, RSC requests,
  // server actions) comes here.
  matcher: ["/((?!api/|_next/static|_next/image|favicon\\.svg).*)"],
};
