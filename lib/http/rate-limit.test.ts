import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "../db/client";
import { openTestDb, testDbKinds } from "../db/testing";
import { hit, peek, RateLimitedError } from "./rate-limit";
import { route } from "./route";

describe.each(testDbKinds())("shared rate limits (%s)", (kind) => {
  let handle: DbHandle & { url?: string };
  // A second instance: its own pool on the same Postgres (on PGlite, which serves one instance, the same handle).
  let other: DbHandle;
  beforeAll(async () => {
    handle = await openTestDb(kind);
    other = handle.url ? await openDb({ databaseUrl: handle.url }) : handle;
  });
  afterAll(async () => {
    if (other !== handle) await other.close();
    await handle.close();
  });
  const rule = { limit: 3, windowMs: 60_000 };
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

  it("allows the limit within the window across instances, then refuses until the window ends", async () => {
    const key = `k-${Math.random()}`;
    expect((await hit(handle.db, key, rule, at(0))).ok).toBe(true);
    expect((await hit(other.db, key, rule, at(1000))).ok).toBe(true);
    expect((await hit(handle.db, key, rule, at(2000))).ok).toBe(true);
    expect(await hit(other.db, key, rule, at(20_000))).toEqual({ ok: false, retryAfterSeconds: 40 });
    expect((await hit(handle.db, `${key}-b`, rule, at(20_000))).ok).toBe(true); // keys are independent
    expect((await hit(other.db, key, rule, at(60_000))).ok).toBe(true); // a new window
  });

  it("lets exactly the limit through when many hits arrive at once from two instances", async () => {
    const key = `burst-${Math.random()}`;
    const burst = { limit: 10, windowMs: 60_000 };
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, (_, i) => hit((i % 2 ? other : handle).db, key, burst)),
    );
    expect(verdicts.filter((v) => v.ok)).toHaveLength(10);
  });

  it("peek() says whether one more hit would pass, without counting", async () => {
    const key = `peek-${Math.random()}`;
    const one = { limit: 1, windowMs: 60_000 };
    expect((await peek(handle.db, key, one)).ok).toBe(true);
    expect((await peek(handle.db, key, one)).ok).toBe(true);
    await hit(handle.db, key, one);
    expect((await peek(other.db, key, one)).ok).toBe(false);
  });
});

describe("route() and RateLimitedError", () => {
  it("answers 429 problem+json rate_limited with Retry-After", async () => {
    const handler = route({}, async () => {
      throw new RateLimitedError(17);
    });
    const res = await handler(new Request("http://localhost/x"), { params: Promise.resolve({}) });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("17");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 429, code: "rate_limited" });
  });
});
