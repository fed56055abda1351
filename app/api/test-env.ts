import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, inject, vi } from "vitest";
import type { StaffRole } from "@/lib/staff/roles";
import { createTestPostgresDatabase, type DbKind } from "@/lib/db/testing";

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

/** Closes the app freshAppEnv made (its database) and takes back its settings. */
export async function closeFreshApp() {
  vi.unstubAllEnvs();
  const holder = globalThis as { __checkoutDb?: Promise<{ close(): Promise<void> }> };
  await (await holder.__checkoutDb)?.close();
  delete holder.__checkoutDb;
}

/**
 * A fresh app (freshAppEnv) for the tests of this describe block, on `kind`: an in-memory PGlite,
 * or a Postgres database of its own, dropped afterwards. Call it before the block's own beforeAll,
 * which then imports the routes it tests.
 */
export function freshAppFor(kind: DbKind) {
  let drop = async () => {};
  beforeAll(async () => {
    if (kind === "postgres") {
      const db = await createTestPostgresDatabase();
      drop = db.drop;
      freshAppEnv({ databaseUrl: db.url });
    } else {
      freshAppEnv();
    }
  });
  afterAll(async () => {
    await closeFreshApp();
    await drop();
  });
}

/** A signed-in staff member's cookie on the fresh app: a new person with `role`. */
export async function staffCookie(role: StaffRole = "admin"): Promise<string> {
  const { db } = await (await import("@/lib/checkout/app-context")).appContext();
  const { inviteStaff } = await import("@/lib/staff/accounts");
  const { openSession } = await import("@/lib/staff/sessions");
  const { member } = await inviteStaff(
    { db, actor: { kind: "system", label: "test" } },
    { email: `${role}-${randomUUID()}@shop.example`, role },
  );
  return `bo_session=${await openSession(db, member.id)}`;
}
