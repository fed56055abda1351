import { describe, expect, it } from "vitest";
import { cached } from "./cache";

describe("the provider data cache", () => {
  it("keeps a value for its time, and serves the last good one while the provider fails", async () => {
    let now = 0;
    let fail = false;
    let loads = 0;
    const get = cached(
      1000,
      async (k: string) => {
        loads++;
        if (fail) throw new Error("provider down");
        return `${k}-${loads}`;
      },
      { now: () => now },
    );
    expect(await get("LT")).toBe("LT-1");
    expect(await get("LT")).toBe("LT-1");
    now = 2000;
    fail = true;
    expect(await get("LT")).toBe("LT-1");
    for (let i = 0; i < 10; i++) expect(await get("LT")).toBe("LT-1");
    expect(loads).toBe(2);
  });

  it("answers a value past its time at once, and loads the new one meanwhile (a hung provider does not hold the page)", async () => {
    let now = 0;
    let loads = 0;
    let release!: (v: string) => void;
    const get = cached(
      1000,
      async (k: string) => {
        loads++;
        if (loads === 1) return `${k}-1`;
        return new Promise<string>((r) => (release = r));
      },
      { now: () => now },
    );
    expect(await get("LT")).toBe("LT-1");
    now = 2000;
    expect(await get("LT")).toBe("LT-1");
    expect(await get("LT")).toBe("LT-1");
    expect(loads).toBe(2);
    release("LT-2");
    await new Promise((r) => setTimeout(r, 0));
    expect(await get("LT")).toBe("LT-2");
  });

  it("gives up waiting for a first value after waitMs, and the load it started serves the next request", async () => {
    let release!: (v: string) => void;
    let loads = 0;
    const get = cached(
      60_000,
      (k: string) => {
        loads++;
        return new Promise<string>((r) => (release = () => r(k)));
      },
      { waitMs: 20, slow: () => new Error("provider slow") },
    );
    await expect(get("LT")).rejects.toThrow("provider slow");
    await expect(get("LT")).rejects.toThrow("provider slow");
    release("LT");
    expect(await get("LT")).toBe("LT");
    expect(loads).toBe(1);
  });

  it("asks a failing provider once per few seconds, not once per request (an outage does not multiply calls)", async () => {
    let now = 0;
    let loads = 0;
    const get = cached(
      60_000,
      async () => {
        loads++;
        throw new Error("provider down");
      },
      { now: () => now },
    );
    for (let i = 0; i < 20; i++) await expect(get("LT")).rejects.toThrow("provider down");
    expect(loads).toBe(1);
    now = 10_000;
    await expect(get("LT")).rejects.toThrow("provider down");
    expect(loads).toBe(2);
  });

  it("makes one provider call for many requests that arrive together", async () => {
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const get = cached(60_000, async (k: string) => {
      loads++;
      await gate;
      return k;
    });
    const all = Promise.all(Array.from({ length: 50 }, () => get("LV")));
    release();
    expect(await all).toEqual(Array(50).fill("LV"));
    expect(loads).toBe(1);
  });

  it("holds a bounded number of keys, however many a client makes up, dropping the least recently used", async () => {
    const loaded: string[] = [];
    const get = cached(60_000, async (k: string) => (loaded.push(k), k), { maxEntries: 3 });
    for (const k of ["a", "b", "c", "a", "d"]) await get(k); // "b" is the least recently used when "d" comes
    loaded.length = 0;
    for (const k of ["a", "c", "d", "b"]) await get(k);
    expect(loaded).toEqual(["b"]);
  });
});
