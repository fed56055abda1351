/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Pages and API responses get their security headers (and the CSP nonce) from proxy.ts at run
  // time; the static assets it skips get the ones that matter for files (ADR 10).
  async headers() {
    const headers = [
      { key: "X-Content-Type-Options", value: "nosniff" },
      { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    ];
    return ["/_next/static/:path*", "/_next/image", "/favicon.svg"].map((source) => ({ source, headers }));
  },
};

export default nextConfig;
