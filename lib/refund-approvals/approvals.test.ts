import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit } from "../audit/audit";
import type { CheckoutContext } from "../checkout/context";
import { createCheckout } from "../checkout/create-checkout";
import { createRefund, listRefunds } from "../checkout/refunds";
import { paidCheckout as paidCheckoutIn, refusal, testContext } from "../checkout/test-context";
import { testDbKinds } from "../db/testing";
import {
  APPROVAL_WINDOW_MS,
  ApprovalError,
  approveRefund,
  listRefundRequests,
  needsApproval,
  rejectRefund,
  requestRefund,
} from "./approvals";

const ana = { id: "st_ana", email: "ana@shop.example" };
const ben = { id: "st_ben", email: "ben@shop.example" };
const cy = { id: "st_cy", email: "cy@shop.example" };

describe.each(testDbKinds())("four eyes on large refunds (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const paidCheckout = async (amount: string) => (await paidCheckoutIn(ctx, amount)).checkout;
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => "ok",
      (e: unknown) => (e instanceof ApprovalError ? e.code : String(e)),
    );

  it("asks for approval once the checkout's refunds and waiting requests with this one pass the limit, compared exactly", async () => {
    const checkout = await paidCheckout("2000.00");
    const asking = (amount: string, above?: string) =>
      needsApproval(ctx.db, { checkoutId: checkout.id, amount, currency: "EUR" }, above);
    expect(await asking("1000.00", "1000")).toBe(false);
    expect(await asking("1000.01", "1000")).toBe(true);
    expect(await asking("1999.99", undefined)).toBe(false);
    await createRefund(checkout.id, { amount: "600" }, "staff", ctx);
    expect(await asking("400.00", "1000")).toBe(false);
    expect(await asking("400.01", "1000")).toBe(true);
    const waiting = await requestRefund(ctx, ana, { checkoutId: checkout.id, amount: "300", currency: "EUR" });
    expect(await asking("100.01", "1000")).toBe(true);
    // A rejected request takes nothing.
    await rejectRefund(ctx, ben, waiting.id);
    expect(await asking("400.00", "1000")).toBe(false);
  });

  it("a requested refund sends nothing until someone else approves it, and is sent once however often approved", async () => {
    const checkout = await paidCheckout("2500.00");
    const request = await requestRefund(ctx, ana, {
      checkoutId: checkout.id,
      amount: "2000",
      currency: "EUR",
      reason: "Return",
    });
    expect(request).toMatchObject({ state: "requested", amount: "2000.00", requestedByEmail: ana.email });
    expect(await listRefunds(checkout.id, ctx)).toEqual([]);
    expect(await codeOf(approveRefund(ctx, ana, request.id))).toBe("own_request");
    const [one, two] = await Promise.all([
      codeOf(approveRefund(ctx, ben, request.id)),
      codeOf(approveRefund(ctx, cy, request.id)),
    ]);
    expect([one, two].sort()).toEqual(["decided", "ok"]);
    const refunds = await listRefunds(checkout.id, ctx);
    expect(refunds.map((r) => r.amount)).toEqual(["2000.00"]);
    expect((await listRefundRequests(ctx, { id: request.id }))[0]).toMatchObject({ state: "approved" });
    expect(await codeOf(rejectRefund(ctx, cy, request.id))).toBe("decided");
    const actions = (await listAudit(ctx.db, { targetId: checkout.id })).map((r) => [
      r.action,
      r.actorLabel,
      r.outcome,
    ]);
    expect(actions).toContainEqual(["refund.requested", ana.email, "succeeded"]);
    expect(actions).toContainEqual(["refund.approved", expect.stringMatching(/ben|cy/), "succeeded"]);
  });

  it("a rejected request sends nothing; one not decided in 7 days has lapsed and cannot be approved", async () => {
    const checkout = await paidCheckout("1500.00");
    const rejected = await requestRefund(ctx, ana, { checkoutId: checkout.id, amount: "1500", currency: "EUR" });
    await rejectRefund(ctx, ben, rejected.id);
    expect(await codeOf(approveRefund(ctx, cy, rejected.id))).toBe("decided");
    const old = await requestRefund(ctx, ana, { checkoutId: checkout.id, amount: "1200", currency: "EUR" });
    const later = new Date(Date.now() + APPROVAL_WINDOW_MS + 60_000);
    expect((await listRefundRequests(ctx, { id: old.id }, later))[0]?.state).toBe("lapsed");
    expect(await codeOf(approveRefund(ctx, ben, old.id, undefined, later))).toBe("lapsed");
    expect(await listRefunds(checkout.id, ctx)).toEqual([]);
  });

  it("a request the payment cannot cover is refused when asked, and nothing is recorded", async () => {
    const checkout = await paidCheckout("1100.00");
    const over = { checkoutId: checkout.id, amount: "1100.01", currency: "EUR" };
    expect((await refusal(requestRefund(ctx, ana, over))).code).toBe("refund_exceeds_payment");
    const open = await createCheckout(
      {
        amount: "2000.00",
        currency: "EUR",
        description: "Not paid",
        reference: "rr-open",
        returnUrl: "http://localhost/r",
      },
      ctx,
    );
    const unpaid = { checkoutId: open.id, amount: "1500", currency: "EUR" };
    expect((await refusal(requestRefund(ctx, ana, unpaid))).code).toBe("not_paid");
    expect(await listRefundRequests(ctx, { checkoutId: checkout.id })).toEqual([]);
    expect(await listRefundRequests(ctx, { checkoutId: open.id })).toEqual([]);
  });

  it("an approval the payment no longer covers leaves the request waiting, to be rejected", async () => {
    const checkout = await paidCheckout("1100.00");
    const request = await requestRefund(ctx, ana, { checkoutId: checkout.id, amount: "800", currency: "EUR" });
    // Meanwhile a smaller refund, under the limit, is made at once.
    await createRefund(checkout.id, { amount: "400" }, "staff", ctx);
    expect(await codeOf(approveRefund(ctx, ben, request.id))).toMatch(/refund_exceeds_payment|CheckoutError/);
    expect((await listRefundRequests(ctx, { id: request.id }))[0]?.state).toBe("requested");
    await rejectRefund(ctx, ben, request.id);
  });
});
