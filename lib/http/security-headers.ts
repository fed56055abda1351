import { createHash, randomBytes } from "node:crypto";

/**
 * The security headers of every page and API response (see docs/adr/0010-security-headers.md).
 * Plain functions of their inputs, so proxy.ts stays a few lines and the policy is unit-tested.
 */

export interface SecurityHeaderOptions {
  /** The per-request nonce; pages only. */
  nonce: string;
  /** The app's public origin (APP_URL): HSTS is sent only when it is https. */
  appUrl: string;
  /** The provider's (or sandbox's) base URL: bank logos are images on its origin. */
  providerBaseUrl: string;
  /** Where the provider's confirm links lead (env confirmOrigins): a posted payment form is sent on there. */
  confirmOrigins?: readonly string[];
  /** `next dev` needs eval for its fast refresh. */
  dev?: boolean;
  /** Origins that may frame this page (the embedded bank picker, ADR 20); no one when absent. */
  frameAncestors?: readonly string[];
}

/** 128 random bits, base64: a fresh one for every request. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The one inline script the app writes itself: components/i18n/DocumentLang sets `<html lang>`
 * while the HTML is parsed. Its text depends only on the locale, so it is allowed by its hash
 * (it would otherwise need the nonce threaded into every page).
 */
export const DOCUMENT_LANG_LOCALES = ["en", "lt", "lv", "et"] as const;
export function documentLangScriptHashes(): string[] {
  return DOCUMENT_LANG_LOCALES.map(
    (l) =>
      `'sha256-${createHash("sha256")
        .update(`document.documentElement.lang=${JSON.stringify(l)};`)
        .digest("base64")}'`,
  );
}

export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The Content-Security-Policy of an HTML page. */
export function pageCsp(o: SecurityHeaderOptions): string {
  const provider = originOf(o.providerBaseUrl);
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    // 'strict-dynamic': scripts loaded by a nonced script are trusted, hosts lists are ignored.
    [
      "script-src",
      "'self'",
      `'nonce-${o.nonce}'`,
      "'strict-dynamic'",
      ...documentLangScriptHashes(),
      ...(o.dev ? ["'unsafe-eval'"] : []),
    ],
    // React and Next write style attributes (route announcer, progress bars); no script can run from CSS.
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:", ...(provider ? [provider] : [])],
    ["font-src", "'self'", "data:"],
    ["connect-src", "'self'", ...(o.dev ? ["ws:"] : [])],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    // The payment form, posted by the browser itself (before the page's code ran, or with none),
    // is answered with a redirect to the provider's confirmLink (app/checkout/[checkoutId]/pay).
    ["form-action", "'self'", ...new Set([...(provider ? [provider] : []), ...(o.confirmOrigins ?? [])])],
    ["frame-ancestors", ...(o.frameAncestors?.length ? o.frameAncestors : ["'none'"])],
    ["frame-src", "'none'"],
    ["worker-src", "'self'", "blob:"],
    ["manifest-src", "'self'"],
  ];
  if (originOf(o.appUrl)?.startsWith("https:")) directives.push(["upgrade-insecure-requests"]);
  return directives.map((d) => d.join(" ")).join("; ");
}

/** API responses are data, never documents: nothing may load or frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The headers of every API response. Set by the route wrapper rather than proxy.ts: API routes
 * need no per-request nonce, and skipping the proxy roughly doubles their throughput (bench).
 */
export function apiSecurityHeaders(appUrl: string): Record<string, string> {
  return { ...commonSecurityHeaders(appUrl), "Content-Security-Policy": API_CSP };
}

/**
 * Headers every response carries (pages and API). A page that some origins may frame (the
 * embedded picker) says so in its CSP alone: X-Frame-Options cannot name an origin.
 */
export function commonSecurityHeaders(appUrl: string, o: { framable?: boolean } = {}): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  // For browsers older than CSP frame-ancestors.
  if (!o.framable) headers["X-Frame-Options"] = "DENY";
  // Only over https: a browser ignores it over http anyway, and a plain-http deployment (local,
  // e2e) must not teach a browser to insist on https for localhost. No includeSubDomains or
  // preload: the merchant's other subdomains are not ours to commit.
  if (originOf(appUrl)?.startsWith("https:")) headers["Strict-Transport-Security"] = "max-age=31536000";
  return headers;
}
