import { afterEach, describe, expect, it, vi } from "vitest";
import { REAL_PROVIDER_ENV } from "@/lib/env-fixtures";

/** The demo shop's page and its server action, loaded as a server with these settings would. */
async function shopWith(settings: Record<string, string>) {
  vi.resetModules();
  for (const [k, v] of Object.entries(settings)) vi.stubEnv(k, v);
  return { page: (await import("./page")).default, actions: await import("./actions") };
}

describe("the demo shop's action", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("answers anything but a form (a client can send any arguments) with a message, not an exception", async () => {
    const { actions } = await shopWith({ PIS_BASE_URL: "" });
    for (const junk of [undefined, null, "[]", 42, { productId: "mug" }]) {
      await expect(actions.startCheckout({ error: null }, junk as unknown as FormData)).resolves.toEqual({
        error: expect.stringMatching(/could not be read/),
      });
    }
  });
});

describe("the demo shop with a real provider", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("is not there: the page is a 404 and its action creates nothing", async () => {
    const { page, actions } = await shopWith(REAL_PROVIDER_ENV);
    await expect(page({ searchParams: Promise.resolve({}) })).rejects.toMatchObject({
      digest: expect.stringMatching(/404/),
    });
    const form = new FormData();
    form.append("productId", "mug");
    form.append("quantity", "1");
    await expect(actions.startCheckout({ error: null }, form)).resolves.toEqual({
      error: "The demo shop exists only in sandbox mode.",
    });
  });
});
