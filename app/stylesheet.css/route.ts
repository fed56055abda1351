import { apiSecurityHeaders } from "@/lib/http/security-headers";
import { cacheable } from "@/lib/http/problem";
import { env } from "@/lib/env";
import { stylesheet } from "../stylesheet";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The stylesheet as a file, for global-error: it replaces the root layout, and with it the layout's
 * `<style>`. Every other page has the stylesheet in its HTML and never asks for this. Kept an hour,
 * then revalidated by its content hash.
 */
export function GET(req: Request) {
  const { css, etag } = stylesheet();
  return cacheable(
    req,
    { body: css, etag, contentType: "text/css; charset=utf-8" },
    "public, max-age=3600, stale-while-revalidate=86400",
    apiSecurityHeaders(env().appUrl),
  );
}
