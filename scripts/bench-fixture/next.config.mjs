// The app's server options (../../next.config.mjs) that shape a route handler's path; the
// app-only ones (file tracing of migrations, PGlite, CSS) do not apply to a bare route.
/** @type {import('next').NextConfig} */
const nextConfig = {
  output: "standalone",
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
