import { describe, expect, it } from "vitest";
import { RateLimitedError, RateLimiter, clientIp } from "./rate-limit";
import { route } from "./route";

describe("RateLimiter", () => {
  it("allows the limit within the window, then refuses with the wait until the oldest hit expires", () => {
    let t = 1_000_000;
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 }, () => t);
    expect([1, 2, 3].map(() => limiter.hit("a").ok)).toEqual([true, true, true]);
    t += 20_000;
    expect(limiter.hit("a")).toEqual({ ok: false, retryAfterSeconds: 40 });
    expect(limiter.hit("b").ok).toBe(true); // keys are independent
    t += 40_001;
    expect(limiter.hit("a").ok).toBe(true);
  });

  it("does not count refused hits, so a client hammering it is let in once the window passes", () => {
    let t = 0;
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 }, () => t);
    limiter.hit("k");
    for (let i = 0; i < 50; i += 1) expect(limiter.hit("k").ok).toBe(false);
    t = 1001;
    expect(limiter.hit("k").ok).toBe(true);
  });

  it("check() does not count; record() does", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 }, () => 0);
    expect(limiter.check("k").ok).toBe(true);
    expect(limiter.check("k").ok).toBe(true);
    limiter.record("k");
    expect(limiter.check("k").ok).toBe(false);
  });

  it("keeps at most maxKeys keys, forgetting the least recently used", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 }, () => 0, 2);
    limiter.hit("a");
    limiter.hit("b");
    limiter.hit("c");
    expect(limiter.check("a").ok).toBe(true);
    expect(limiter.check("c").ok).toBe(false);
  });
});

describe("clientIp", () => {
  it("takes the last X-Forwarded-For entry (the one the nearest proxy appended)", () => {
    expect(clientIp(new Headers({ "x-forwarded-for": "6.6.6.6, 10.0.0.1 , 203.0.113.9" }))).toBe("203.0.113.9");
    expect(clientIp(new Headers({ "x-real-ip": "198.51.100.1" }))).toBe("198.51.100.1");
    expect(clientIp(new Headers())).toBe("unknown");
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
