import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { countPgliteTrips, withRoundTripCount } from "./round-trips";

describe("database round trips (bench rig)", () => {
  const client = new PGlite();
  countPgliteTrips(client);
  afterAll(() => client.close());

  it("counts each statement, and a transaction's BEGIN and COMMIT, inside the counted work only", async () => {
    const [, trips] = await withRoundTripCount(async () => {
      await client.query("select 1");
      await client.transaction(async (tx) => {
        await tx.query("select 2");
        await tx.query("select 3");
      });
    });
    expect(trips).toBe(5);
    // Outside a counted request nothing is counted (the worker's queries, say).
    await client.query("select 4");
    const [, none] = await withRoundTripCount(async () => undefined);
    expect(none).toBe(0);
  });
});
