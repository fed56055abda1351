import { describe, expect, expectTypeOf, it } from "vitest";
import { BankCheckout } from "./client.ts";
import type { paths } from "./schema.ts";

/** The POSTs whose Idempotency-Key the app honours, by the document. */
type HeaderOf<Op> = Op extends { parameters: { header?: infer H } } ? NonNullable<H> : never;
type KeyedPosts = {
  [P in keyof paths]: [HeaderOf<paths[P]["post"]>] extends [never]
    ? never
    : "Idempotency-Key" extends keyof HeaderOf<paths[P]["post"]>
      ? P
      : never;
}[keyof paths];

/** A fetch that records each request and answers `{}`. */
function recording() {
  const calls: { method: string; url: string; body: unknown; key: string | null }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    calls.push({
      method: init?.method ?? "GET",
      url: String(input),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      key: headers.get("idempotency-key"),
    });
    return new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } });
  };
  return { calls, client: new BankCheckout({ baseUrl: "https://pay.example.com/", apiKey: "k", fetch }) };
}

describe("BankCheckout", () => {
  it("maps each method to its route of the API", async () => {
    const { calls, client } = recording();
    await client.checkouts.get("co_1");
    await client.checkouts.list();
    await client.checkouts.list({ status: "paid", from: "2026-11-28", to: "2026-11-28" });
    await client.checkouts.list({ updatedFrom: "2026-11-28", updatedTo: "2026-11-28" });
    await client.checkouts.cancel("co_1");
    await client.refunds.create("co_1", { amount: "5.00", reason: "Returned" });
    await client.refunds.list("co_1");
    await client.testHelpers.completePayment("co_1", "failed");
    await client.paymentLinks.create({ title: "Donation", currency: "EUR", amount: "5.00", referencePrefix: "don" });
    await client.paymentLinks.list();
    await client.paymentLinks.list({ page: 2 });
    await client.paymentLinks.get("pl_1");
    await client.paymentLinks.deactivate("pl_1");
    expect(calls.map(({ method, url, body }) => [method, url, body])).toEqual([
      ["GET", "https://pay.example.com/api/checkouts/co_1", undefined],
      ["GET", "https://pay.example.com/api/checkouts", undefined],
      ["GET", "https://pay.example.com/api/checkouts?status=paid&from=2026-11-28&to=2026-11-28", undefined],
      ["GET", "https://pay.example.com/api/checkouts?updatedFrom=2026-11-28&updatedTo=2026-11-28", undefined],
      ["POST", "https://pay.example.com/api/checkouts/co_1/cancel", undefined],
      ["POST", "https://pay.example.com/api/checkouts/co_1/refunds", { amount: "5.00", reason: "Returned" }],
      ["GET", "https://pay.example.com/api/checkouts/co_1/refunds", undefined],
      ["POST", "https://pay.example.com/api/test-helpers/checkouts/co_1/complete", { outcome: "failed" }],
      [
        "POST",
        "https://pay.example.com/api/payment-links",
        { title: "Donation", currency: "EUR", amount: "5.00", referencePrefix: "don" },
      ],
      ["GET", "https://pay.example.com/api/payment-links", undefined],
      ["GET", "https://pay.example.com/api/payment-links?page=2", undefined],
      ["GET", "https://pay.example.com/api/payment-links/pl_1", undefined],
      ["POST", "https://pay.example.com/api/payment-links/pl_1/deactivate", undefined],
    ]);
    expect(calls.filter((c) => c.method === "POST").every((c) => c.key !== null)).toBe(true);
  });

  it("retries the POSTs the app honours a key on: when this list changes, so does `repeatable` in client.ts", () => {
    // Checked by tsc (npm run typecheck), not at run time.
    expectTypeOf<KeyedPosts>().toEqualTypeOf<
      "/api/checkouts" | "/api/checkouts/{checkoutId}/refunds" | "/api/payment-links"
    >();
  });

  it("keeps an id inside its path segment", async () => {
    const { calls, client } = recording();
    await client.checkouts.get("../openapi.json?x=1");
    expect(calls[0]!.url).toBe("https://pay.example.com/api/checkouts/..%2Fopenapi.json%3Fx%3D1");
    await expect(client.checkouts.get("")).rejects.toThrow(TypeError);
  });

  it("keeps a base URL's path (an app behind a prefix)", async () => {
    const calls: string[] = [];
    const client = new BankCheckout({
      baseUrl: "https://example.com/pay",
      apiKey: "k",
      fetch: async (input) => {
        calls.push(String(input));
        return new Response("{}");
      },
    });
    await client.checkouts.get("co_1");
    expect(calls).toEqual(["https://example.com/pay/api/checkouts/co_1"]);
  });
});
