import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "./client";
import { startPgliteBackend } from "./pglite-backend";
import { rowsOf } from "./raw";

describe("the embedded database on a thread of its own", () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openDb({ pgliteDir: "memory://" });
  });
  afterAll(() => handle.close());

  // What a payer notices: while one request's statement runs, the server still answers the others.
  it("keeps the app's event loop free while a statement runs", async () => {
    let last = performance.now();
    // The longest the loop went without running a timer of 5 ms.
    let longestGap = 0;
    const ticking = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const answer = await handle.db.execute(sql`select count(*)::int as n from generate_series(1, 2000000)`);
    const ran = performance.now() - started;
    clearInterval(ticking);
    longestGap = Math.max(longestGap, performance.now() - last);
    expect(rowsOf(answer)).toEqual([{ n: 2_000_000 }]);
    // On the app's thread the loop stood still for the whole statement.
    expect(ran).toBeGreaterThan(200);
    expect(longestGap).toBeLessThan(ran / 2);
  });

  it("answers statements from many requests at once, each with its own result", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => handle.db.execute(sql`select ${i}::int * 2 as twice`)),
    );
    expect(answers.map((a) => rowsOf(a)[0])).toEqual(Array.from({ length: 20 }, (_, i) => ({ twice: i * 2 })));
  });

  it("reports a failed statement as the database's error, and goes on answering", async () => {
    await expect(handle.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    const after = await handle.db.execute(sql`select 'still here' as s`);
    expect(rowsOf(after)).toEqual([{ s: "still here" }]);
  });

  it("says so once if its thread dies, and fails every statement after at once with the reason", async () => {
    const lost: string[] = [];
    const backend = await startPgliteBackend("memory://", { onLost: (err) => lost.push(err.message) });
    await backend.thread.terminate();
    expect(lost).toEqual(["the embedded database's thread stopped (exit code 1)"]);
    const { Client } = await import("pg");
    const client = new Client({ stream: () => backend.socket(), user: "postgres", database: "postgres" });
    client.on("error", () => {});
    await expect(client.connect()).rejects.toThrow("the embedded database's thread stopped");
    await backend.close();
    expect(lost).toHaveLength(1);
  });
});
