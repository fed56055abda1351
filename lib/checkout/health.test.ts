import { describe, expect, it, vi } from "vitest";
import { createPisClient } from "../pis";
import { testContext } from "./test-context";

/** health.ts remembers the provider's answer for a few seconds: each case starts without it. */
async function freshReadiness() {
  vi.resetModules();
  return (await import("./health")).readiness;
}

describe("readiness", () => {
  it("is ready with the database and the provider answering, and says nothing more", async () => {
    const readiness = await freshReadiness();
    const { ctx, close } = await testContext("pglite");
    try {
      expect(await readiness(ctx)).toEqual({ status: "ready", database: "ok", provider: "ok" });
    } finally {
      await close();
    }
  });

  it("stays in rotation, degraded, while the provider cannot be reached (every instance is in the same place)", async () => {
    const readiness = await freshReadiness();
    const { ctx, close } = await testContext("pglite");
    try {
      const unreachable = {
        ...ctx,
        pis: createPisClient({
          baseUrl: "http://127.0.0.1:9/platform",
          clientId: "x",
          clientSecret: "y",
          timeoutMs: 1000,
        }),
      };
      expect(await readiness(unreachable)).toEqual({ status: "degraded", database: "ok", provider: "unreachable" });
    } finally {
      await close();
    }
  });

  it("is not ready without its database", async () => {
    const readiness = await freshReadiness();
    const { ctx, close } = await testContext("pglite");
    await close();
    expect(await readiness(ctx)).toMatchObject({ status: "not_ready", database: "unreachable" });
  });
});
