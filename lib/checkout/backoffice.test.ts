import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDbKinds } from "../db/testing";
import { checkoutDetailForStaff } from "./backoffice";
import { loadCheckout } from "./checkouts";
import type { CheckoutContext } from "./context";
import { createCheckout } from "./create-checkout";
import { enqueueNotification } from "./notifications";
import { testContext } from "./test-context";

describe.each(testDbKinds())("the staff's view of a checkout (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  it("never shows the password of a notify URL that carries one (the notifier still uses it)", async () => {
    const checkout = await createCheckout(
      {
        amount: "10.00",
        currency: "EUR",
        description: "Order",
        reference: `bo-${Math.random().toString(36).slice(2)}`,
        returnUrl: "https://shop.test/thanks",
        notifyUrl: "https://shop:s3cret-pw@shop.test/hook",
      },
      ctx,
    );
    // A notification is addressed to it too, and the back office lists where each went.
    const row = (await loadCheckout(ctx, checkout.id))!;
    await ctx.db.transaction((tx) => enqueueNotification(tx, row, "checkout.paid", {}));
    const detail = await checkoutDetailForStaff(checkout.id, ctx);
    expect(detail?.notifyUrl).toBe("https://shop:•••@shop.test/hook");
    expect(JSON.stringify(detail)).not.toContain("s3cret-pw");
  });
});
