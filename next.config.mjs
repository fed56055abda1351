/** @type {import('next').NextConfig} */
const nextConfig = {
  // A self-contained server in .next/standalone (node server.js) for the container image
  // (Dockerfile); `npm start` still runs `next start` on the same build.
  output: "standalone",
  // Read at run time from the working directory, so traced into the standalone server by hand: the
  // migrations, the embedded database's thread (lib/db/pglite-backend.ts) and the stylesheet
  // (app/stylesheet.ts).
  outputFileTracingIncludes: {
    "/*": [
      "./lib/db/migrations/**/*",
      "./lib/db/pglite-worker.mjs",
      "./lib/db/pglite-sessions.mjs",
      "./lib/db/pglite-dump.mjs",
      "./app/globals.css",
    ],
  },
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled. The
  // OpenTelemetry SDK patches node-postgres as Node loads it, which only works unbundled, and one
  // copy of its API is shared with Next's own spans (ADR 35).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@opentelemetry/api",
    "@opentelemetry/sdk-node",
    "@opentelemetry/instrumentation-pg",
    "@opentelemetry/exporter-trace-otlp-proto",
    "@opentelemetry/exporter-trace-otlp-http",
  ],
  poweredByHeader: false,
  // proxy.ts sees the request's address as Next's router does. Otherwise Next gives it "localhost"
  // for a loopback host, and a server started on 127.0.0.1 (HOSTNAME, behind a proxy on the same
  // machine) takes the proxy's rewrite to the away page for another host's: it relays the request
  // to itself over HTTP, round and round, and answers 500 after 30 s (vercel/next.js#94745).
  skipProxyUrlNormalize: true,
  // CSS imports (the back office's CSS modules) go into the page's HTML instead of a render-blocking
  // request: on a phone that request alone delayed the first paint by most of a second (issue 16).
  // The site's own stylesheet is a <style> of the root layout (app/stylesheet.ts).
  experimental: {
    inlineCss: true,
    // forbidden(): a staff role that may not do something gets 403 and app/forbidden.tsx, from a
    // page or a server action alike (components/backoffice/require-staff.ts).
    authInterrupts: true,
    // No request needs more than the API's 64 KB (lib/http/body.ts). proxy.ts answers a page
    // request with a bigger body 413 before Next reads it; behind it, a server action refuses one
    // too, and the proxy is never handed more than this of a body (Next's default is 10 MB).
    serverActions: { bodySizeLimit: "64kb" },
    proxyClientMaxBodySize: "64kb",
  },
  reactStrictMode: true,
  // Pages get their security headers (and the CSP nonce) from proxy.ts at run time, API responses
  // from the route wrapper (an address no route has, too: app/api/[...unknown]); the static assets
  // both skip get the ones that matter for files (ADR 10).
  async headers() {
    const headers = [
      { key: "X-Content-Type-Options", value: "nosniff" },
      { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    ];
    return ["/_next/static/:path*", "/_next/image", "/favicon.svg"].map((source) => ({ source, headers }));
  },
};

export default nextConfig;
