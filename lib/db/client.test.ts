import { describe, expect, it } from "vitest";
import { openDb } from "./client";
import { rowsOf } from "./raw";
import { createTestPostgresDatabase } from "./testing";

describe.runIf(process.env.TEST_DATABASE_URL)("several instances starting together on one Postgres", () => {
  it("bring a fresh database's schema up once, and all of them start", async () => {
    const { url, drop } = await createTestPostgresDatabase();
    try {
      // Three instances of a deploy, each with its own pool, starting at the same moment.
      const handles = await Promise.all([1, 2, 3].map(() => openDb({ databaseUrl: url })));
      const applied = rowsOf<{ n: number }>(
        await handles[0]!.db.execute("select count(*)::int as n from drizzle.__drizzle_migrations"),
      );
      const { readdirSync } = await import("node:fs");
      expect(applied[0]!.n).toBe(readdirSync("lib/db/migrations").filter((f) => f.endsWith(".sql")).length);
      await Promise.all(handles.map((h) => h.close()));
    } finally {
      await drop();
    }
  });
});
