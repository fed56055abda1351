import { afterEach, describe, expect, it, vi } from "vitest";
import { REAL_PROVIDER_ENV } from "@/lib/env-fixtures";

// The action reads the demo customer's cookie; outside a request there is no cookie store.
const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { value: jar.get(name) } : undefined),
    set: (name: string, value: string) => jar.set(name, value),
  }),
}));

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

describe("the demo shop's checkout", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
    jar.clear();
  });

  const cart = () => {
    const form = new FormData();
    form.append("productId", "ceramic-mug");
    form.append("quantity", "2");
    return form;
  };

  it("is created over the app's own API with the typed client and the sandbox's merchant key", async () => {
    const { actions } = await shopWith({ PIS_BASE_URL: "", APP_URL: "http://localhost:3999", MERCHANT_API_KEY: "" });
    const requests: Request[] = [];
    vi.stubGlobal("fetch", async (input: string, init: RequestInit) => {
      requests.push(new Request(input, init));
      return Response.json({ id: "co_demo", url: "http://localhost:3999/checkout/co_demo", status: "open" });
    });
    await expect(actions.startCheckout({ error: null }, cart())).rejects.toMatchObject({
      digest: expect.stringContaining("/checkout/co_demo"),
    });
    const [sent] = requests;
    expect(sent!.url).toBe("http://localhost:3999/api/checkouts");
    expect(sent!.headers.get("authorization")).toBe("Bearer dev-merchant-key");
    expect(sent!.headers.get("idempotency-key")).toBeTruthy();
    const body = (await sent!.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ currency: "EUR", returnUrl: "http://localhost:3999/" });
    expect(body.amount).toMatch(/^\d+\.\d{2}$/);
    // The browser's customer id, kept in its cookie for the next order.
    expect(body.customerId).toBe(jar.get("demo_shop_customer"));
  });

  it("shows the payer a message when the API refuses", async () => {
    const { actions } = await shopWith({ PIS_BASE_URL: "" });
    vi.stubGlobal("fetch", async () =>
      Response.json(
        { type: "about:blank#invalid_body", title: "", status: 400, code: "invalid_body", retry: false },
        { status: 400, headers: { "Content-Type": "application/problem+json" } },
      ),
    );
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(actions.startCheckout({ error: null }, cart())).resolves.toEqual({
      error: expect.stringMatching(/could not start the checkout/),
    });
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
