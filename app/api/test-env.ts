import { inject, vi } from "vitest";

/**
 * Makes the next import of route handlers behave like a freshly started server in sandbox mode:
 * a new app context and database (in-memory PGlite unless `databaseUrl` is given), new rate
 * limiters, the test run's sandbox provider, and no background worker rounds during the tests.
 */
export function freshAppEnv(opts: { databaseUrl?: string } = {}) {
  const g = globalThis as { __checkoutDb?: unknown; __rateLimiters?: unknown };
  delete g.__checkoutDb;
  delete g.__rateLimiters;
  vi.resetModules();
  vi.stubEnv("SANDBOX_PORT", new URL(inject("sandboxUrl")).port);
  vi.stubEnv("PIS_BASE_URL", "");
  vi.stubEnv("PGLITE_DIR", "memory://");
  vi.stubEnv("DATABASE_URL", opts.databaseUrl ?? "");
  vi.stubEnv("WORKER_INTERVAL_MS", "600000");
}
