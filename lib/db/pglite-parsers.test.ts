import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { installDrizzleParsers } from "./pglite-parsers";

// Every type whose text drizzle maps itself, and a few it leaves to PGlite.
const ROW = sql`select
  timestamptz '2026-11-25 10:00:00.123+00' as tstz, timestamp '2026-11-25 10:00:00.5' as ts,
  date '2026-11-25' as d, interval '90 minutes' as i, numeric '12.50' as n,
  array[numeric '1.10', numeric '2.20'] as ns, array[timestamptz '2026-11-25 10:00+00'] as tstzs,
  array[date '2026-11-25'] as ds, jsonb '{"a": [1, 2]}' as j, array[1, 2] as ints, true as b`;

describe("drizzle's type parsers set once on the PGlite client", () => {
  const plain = new PGlite();
  const fast = new PGlite();
  afterAll(() => Promise.all([plain.close(), fast.close()]));

  it("reads every value exactly as drizzle does with its per-query parsers, inside a transaction too", async () => {
    await installDrizzleParsers(fast);
    const [a, b] = [drizzle(plain), drizzle(fast)];
    const expected = await a.execute(ROW);
    expect(expected.rows[0]).toMatchObject({ tstz: "2026-11-25 10:00:00.123+00", n: "12.50", ns: "{1.10,2.20}" });
    expect((await b.execute(ROW)).rows).toEqual(expected.rows);
    expect(await b.transaction((tx) => tx.execute(ROW)).then((r) => r.rows)).toEqual(expected.rows);
  });
});
