import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { CheckoutContext } from "../checkout/context";
import { getCheckoutDetail } from "../checkout/checkouts";
import { createCheckout } from "../checkout/create-checkout";
import { refusal, testContext } from "../checkout/test-context";
import { testDbKinds } from "../db/testing";
import { completeTestPayment, type SandboxControl } from "./complete-payment";

describe.each(testDbKinds())("paying a checkout in a merchant's tests (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  let sandbox: SandboxControl;
  beforeAll(async () => {
    ({ ctx, close } = await testContext(kind));
    sandbox = { pisBaseUrl: `${inject("sandboxUrl")}/platform`, controlSecret: "sandbox-control-secret" };
  });
  afterAll(() => close());

  const order = (reference: string) => ({
    amount: "9.99",
    currency: "EUR",
    description: "Test order",
    reference,
    returnUrl: "http://localhost/r",
  });

  it.each([
    ["paid", "paid"],
    ["failed", "failed"],
    ["cancelled", "failed"],
  ] as const)("%s at the sandbox bank makes the checkout %s, through a real payment", async (outcome, status) => {
    const checkout = await createCheckout(order(`th-${outcome}`), ctx);
    const answer = await completeTestPayment(ctx, sandbox, checkout.id, { outcome });
    expect(answer.status).toBe(status);
    const detail = await getCheckoutDetail(checkout.id, ctx);
    expect(detail.status).toBe(status);
    expect(detail.attempts).toHaveLength(1);
  });

  it("a paid checkout cannot be paid again; an unknown one is not found", async () => {
    const checkout = await createCheckout(order("th-twice"), ctx);
    await completeTestPayment(ctx, sandbox, checkout.id, { outcome: "paid" });
    expect((await refusal(completeTestPayment(ctx, sandbox, checkout.id, { outcome: "paid" }))).code).toBe(
      "already_paid",
    );
    expect((await refusal(completeTestPayment(ctx, sandbox, "co_unknown", { outcome: "paid" }))).code).toBe(
      "checkout_not_found",
    );
  });
});
