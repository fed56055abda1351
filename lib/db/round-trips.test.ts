import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "./client";

describe("database round trips (bench rig)", () => {
  let handle: DbHandle;
  let withRoundTripCount: typeof import("./round-trips").withRoundTripCount;
  beforeAll(async () => {
    // Read when the module loads: set first, as `npm run bench` sets it for the server.
    process.env.BENCH_COUNT_ROUND_TRIPS = "1";
    ({ withRoundTripCount } = await import("./round-trips"));
    handle = await (await import("./client")).openDb({ pgliteDir: "memory://", poolSize: 1 });
  });
  afterAll(async () => {
    await handle.close();
    delete process.env.BENCH_COUNT_ROUND_TRIPS;
  });

  it("counts each statement, and a transaction's BEGIN and COMMIT, inside the counted work only", async () => {
    const { db } = handle;
    const [, trips] = await withRoundTripCount(async () => {
      await db.execute(sql`select 1`);
      await db.transaction(async (tx) => {
        await tx.execute(sql`select 2`);
        await tx.execute(sql`select 3`);
      });
    });
    expect(trips).toBe(5);
    // Outside a counted request nothing is counted (the worker's queries, say).
    await db.execute(sql`select 4`);
    const [, none] = await withRoundTripCount(async () => undefined);
    expect(none).toBe(0);
  });

  // With every connection busy (one here), a statement waits for one, and the pool sent a waiting
  // statement from the callback of whichever request freed the connection.
  it("counts a statement that waited for the connection against the request that made it", async () => {
    const { db } = handle;
    const counted = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        withRoundTripCount(async () => {
          await db.execute(sql`select ${i}::int`);
          await db.execute(sql`select ${i}::int + 1`);
        }),
      ),
    );
    expect(counted.map(([, trips]) => trips)).toEqual([2, 2, 2, 2, 2, 2]);
  });
});
