import { EMBED_JS, EMBED_JS_HASH } from "@/lib/embed/loader-bundle";
import { apiSecurityHeaders } from "@/lib/http/security-headers";
import { cacheable } from "@/lib/http/problem";
import { env } from "@/lib/env";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The drop-in bank picker's loader (lib/embed/loader.ts). `/embed.js` is the address merchants
 * write into their pages, so it is kept an hour and revalidated by its content hash (a 304 after
 * a release with no change); `/embed.js?v={hash}` names one version and is kept for a year.
 */
export function GET(req: Request) {
  const pinned = new URL(req.url).searchParams.get("v") === EMBED_JS_HASH;
  return cacheable(
    req,
    { body: EMBED_JS, etag: `"${EMBED_JS_HASH}"`, contentType: "text/javascript; charset=utf-8" },
    pinned ? "public, max-age=31536000, immutable" : "public, max-age=3600, stale-while-revalidate=86400",
    // A script for other sites' pages: loadable by them even when they isolate themselves (COEP).
    { ...apiSecurityHeaders(env().appUrl), "Cross-Origin-Resource-Policy": "cross-origin" },
  );
}
