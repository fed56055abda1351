// The app's server options (../../next.config.mjs) that shape a route handler's path; the
// app-only ones (file tracing of migrations, PGlite, CSS) do not apply to a bare route.

/**
 * What lib/http/security-headers.ts's commonSecurityHeaders sends with every page over http (a
 * test keeps them equal), for the bare page at /secured. Not the Content-Security-Policy: a
 * static one cannot carry the per-request nonce Next's scripts need, and with or without it our
 * pages measured the same. Cross-Origin-Opener-Policy is the one that costs: the browser gives the
 * page a browsing context group, and so a renderer, of its own.
 */
export const PAGE_SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: "standalone",
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [
      {
        source: "/secured",
        headers: Object.entries(PAGE_SECURITY_HEADERS).map(([key, value]) => ({ key, value })),
      },
      // Cross-Origin-Opener-Policy alone, and the others without it (scripts/coop-cost.ts).
      { source: "/secured-coop", headers: [{ key: "Cross-Origin-Opener-Policy", value: "same-origin" }] },
      {
        source: "/secured-others",
        headers: Object.entries(PAGE_SECURITY_HEADERS)
          .filter(([key]) => key !== "Cross-Origin-Opener-Policy")
          .map(([key, value]) => ({ key, value })),
      },
    ];
  },
};

export default nextConfig;
