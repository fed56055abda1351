import { inject, vi } from "vitest";

/**
 * Makes the next import of route handlers behave like a freshly started server in sandbox mode:
 * a new app context and database (in-memory PGlite unless `databaseUrl` is given), so fresh
 * rate-limit counters, the test run's sandbox provider, and no background worker rounds.
 */
export function freshAppEnv(opts: { databaseUrl?: string } = {}) {
  const g = globalThis as { __checkoutDb?: unknown };
  delete g.__checkoutDb;
  vi.resetModules();
  vi.stubEnv("SANDBOX_PORT", new URL(inject("sandboxUrl")).port);
  vi.stubEnv("PIS_BASE_URL", "");
  vi.stubEnv("PGLITE_DIR", "memory://");
  vi.stubEnv("DATABASE_URL", opts.databaseUrl ?? "");
  vi.stubEnv("WORKER_INTERVAL_MS", "600000");
}
