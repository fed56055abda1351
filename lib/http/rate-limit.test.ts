import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "../db/client";
import { openTestDb, testDbKinds } from "../db/testing";
import { hit, limitFailures, RateLimitedError } from "./rate-limit";
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

  // The back-office login (app/backoffice/login/actions.ts) checks its password through limitFailures().
  describe("limitFailures(): guesses at a password", () => {
    const login = { limit: 10, windowMs: 15 * 60_000 };

    it("checks at most the limit's number of wrong passwords however many arrive at once, then refuses even the right one", async () => {
      const key = `login-${Math.random()}`;
      let wrongChecked = 0;
      const wrong = () => {
        wrongChecked++;
        return false;
      };
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          limitFailures((i % 2 ? other : handle).db, [{ key, rule: login }], i === 39 ? () => true : wrong),
        ),
      );
      expect(wrongChecked).toBe(10);
      expect(answers.filter((a) => a.ok && !a.passed)).toHaveLength(10);
      expect(answers.filter((a) => !a.ok).length).toBeGreaterThanOrEqual(29);

      let rightChecked = false;
      const right = await limitFailures(other.db, [{ key, rule: login }], () => (rightChecked = true));
      expect(right).toMatchObject({ ok: false });
      expect(rightChecked).toBe(false);
    });

    it("a right password does not use up the allowance of wrong ones", async () => {
      const key = `login-${Math.random()}`;
      for (let i = 0; i < 15; i++)
        expect(await limitFailures(handle.db, [{ key, rule: login }], () => true)).toEqual({ ok: true, passed: true });
      const wrong = await Promise.all(
        Array.from({ length: 10 }, () => limitFailures(other.db, [{ key, rule: login }], () => false)),
      );
      expect(wrong.every((a) => a.ok && !a.passed)).toBe(true);
      expect((await limitFailures(handle.db, [{ key, rule: login }], () => false)).ok).toBe(false);
    });

    it("an account guessed at from many addresses waits too, while the others' sign-ins go on", async () => {
      const account = `login:account:${Math.random()}`;
      const from = (i: number) => [
        { key: `login:ip:${account}:${i}`, rule: login },
        { key: account, rule: login },
      ];
      for (let i = 0; i < 10; i++)
        expect(await limitFailures(handle.db, from(i), () => false)).toMatchObject({ ok: true });
      // The eleventh address is fresh, the account is not: refused before its password is checked.
      let checked = false;
      expect(await limitFailures(other.db, from(10), () => (checked = true))).toMatchObject({ ok: false });
      expect(checked).toBe(false);
      const otherAccount = [{ key: `login:account:other-${Math.random()}`, rule: login }];
      expect(await limitFailures(handle.db, otherAccount, async () => true)).toEqual({ ok: true, passed: true });
    });
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
