import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createPisClient } from "../pis";
import { testContext } from "./test-context";

/** health.ts remembers the provider's answer for a few seconds: each case starts without it. */
async function freshReadiness() {
  vi.resetModules();
  return (await import("./health")).readiness;
}

describe("readiness", () => {
  // One database for the cases that keep theirs open; opening one costs seconds here.
  let shared: Awaited<ReturnType<typeof testContext>>;
  beforeAll(async () => {
    shared = await testContext("pglite");
  });
  afterAll(() => shared.close());

  it("is ready with the database and the provider answering, and says nothing more", async () => {
    const readiness = await freshReadiness();
    expect(await readiness(shared.ctx)).toEqual({ status: "ready", database: "ok", provider: "ok" });
  });

  it("stays in rotation, degraded, while the provider cannot be reached (every instance is in the same place)", async () => {
    const readiness = await freshReadiness();
    const unreachable = {
      ...shared.ctx,
      pis: createPisClient({
        baseUrl: "http://127.0.0.1:9/platform",
        clientId: "x",
        clientSecret: "y",
        timeoutMs: 1000,
      }),
    };
    expect(await readiness(unreachable)).toEqual({ status: "degraded", database: "ok", provider: "unreachable" });
  });

  it("tells credentials the provider refuses from an address with no provider API, and logs what to fix", async () => {
    const { ctx } = shared;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const sandboxUrl = inject("sandboxUrl");
      const cases = [
        [
          `${sandboxUrl}/platform`,
          "not-our-id",
          "credentials_refused",
          /HTTP 401.*PIS_CLIENT_ID and PIS_CLIENT_SECRET/,
        ],
        [`${sandboxUrl}/platform/v0.3`, "sandbox-client-id", "wrong_address", /HTTP 404.*PIS_BASE_URL/],
        [
          "http://127.0.0.1:9/platform",
          "sandbox-client-id",
          "unreachable",
          /network ECONNREFUSED \(check PIS_BASE_URL/,
        ],
      ] as const;
      for (const [baseUrl, clientId, state, logged] of cases) {
        const readiness = await freshReadiness();
        warn.mockClear();
        const pis = createPisClient({ baseUrl, clientId, clientSecret: "sandbox-client-secret", timeoutMs: 1000 });
        expect(await readiness({ ...ctx, pis }), baseUrl).toEqual({
          status: "degraded",
          database: "ok",
          provider: state,
        });
        expect(warn, baseUrl).toHaveBeenCalledTimes(1);
        expect(warn.mock.calls[0]![0]).toMatch(logged);
        expect(String(warn.mock.calls[0]![0])).not.toContain("sandbox-client-secret");
      }
    } finally {
      warn.mockRestore();
    }
  });

  it("is not ready without its database", async () => {
    const readiness = await freshReadiness();
    const { ctx, close } = await testContext("pglite");
    await close();
    expect(await readiness(ctx)).toMatchObject({ status: "not_ready", database: "unreachable" });
  });
});
