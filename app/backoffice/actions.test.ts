import { beforeAll, describe, expect, it, vi } from "vitest";
import { freshAppFor, staffCookie } from "@/app/api/test-env";
import { INITIAL_REFUND_STATE } from "@/components/backoffice/action-state";
import { testDbKinds } from "@/lib/db/testing";

// Outside a request there is no cookie store or headers: this request's, as a browser sends them.
const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (jar.has(name) ? { value: jar.get(name) } : undefined) }),
  headers: async () => new Headers({ "user-agent": "test", "x-checkout-peer": "203.0.113.5" }),
}));

describe.each(testDbKinds())("four eyes on staff refunds (%s)", (kind) => {
  freshAppFor(kind);
  let refundCheckout: typeof import("./actions").refundCheckout;
  let decideRefundRequest: typeof import("./actions").decideRefundRequest;
  let listRefundRequests: typeof import("@/lib/refund-approvals/approvals").listRefundRequests;
  let ctx: Awaited<ReturnType<typeof import("@/lib/checkout/app-context").appContext>>;
  beforeAll(async () => {
    vi.stubEnv("REFUND_APPROVAL_ABOVE", "100");
    ({ refundCheckout, decideRefundRequest } = await import("./actions"));
    ({ listRefundRequests } = await import("@/lib/refund-approvals/approvals"));
    ctx = await (await import("@/lib/checkout/app-context")).appContext();
  });

  /** A paid checkout of 500.00, and the refund form as a finance person sends it, for `amount`. */
  async function financeRefunding(amount: string) {
    const { paidCheckout } = await import("@/lib/checkout/test-context");
    const { checkout, paymentId } = await paidCheckout(ctx, "500.00");
    const [name, token] = (await staffCookie("finance")).split("=") as [string, string];
    jar.set(name, token);
    const refund = (refundKey: string) => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ checkoutId: checkout.id, amount, reason: "Return", refundKey }))
        form.set(k, v);
      return refundCheckout(INITIAL_REFUND_STATE, form);
    };
    return { checkout, paymentId, refund };
  }

  it("refunds split into parts wait for a second person once together they pass the limit", async () => {
    const { checkout, paymentId, refund } = await financeRefunding("100");

    expect(await refund("first-part-0000000")).toMatchObject({ ok: true, message: expect.stringMatching(/started/) });
    expect(await refund("second-part-000000")).toMatchObject({
      ok: true,
      message: expect.stringMatching(/waits for another finance or admin person/),
    });
    expect((await ctx.pis.refunds.list(paymentId)).map((r) => Number(r.amount))).toEqual([100]);
    expect(await listRefundRequests(ctx, { checkoutId: checkout.id })).toMatchObject([
      { state: "requested", amount: "100.00" },
    ]);
  });

  it("two parts sent at the same moment, each under the limit alone, are counted one after the other: one made, one asked for", async () => {
    const { checkout, paymentId, refund } = await financeRefunding("60");
    const answers = await Promise.all([refund("together-part-0001"), refund("together-part-0002")]);
    expect(answers.map((a) => ("message" in a ? a.message : "")).sort()).toEqual([
      expect.stringMatching(/started/),
      expect.stringMatching(/waits for another finance or admin person/),
    ]);
    expect((await ctx.pis.refunds.list(paymentId)).map((r) => Number(r.amount))).toEqual([60]);
    expect(await listRefundRequests(ctx, { checkoutId: checkout.id })).toMatchObject([
      { state: "requested", amount: "60.00" },
    ]);
  });

  it("a refused decision is written down against the request's own checkout, whatever checkout the form names", async () => {
    const { paidCheckout } = await import("@/lib/checkout/test-context");
    const other = await paidCheckout(ctx, "1.00");
    const { checkout, refund } = await financeRefunding("200");
    await refund("own-request-000001");
    const [request] = await listRefundRequests(ctx, { checkoutId: checkout.id });
    const form = new FormData();
    for (const [k, v] of Object.entries({ checkoutId: other.checkout.id, requestId: request!.id, decision: "approve" }))
      form.set(k, v);
    // The person who asked cannot approve: refused, and the trail says so on the request's checkout.
    expect(await decideRefundRequest(null, form)).toMatchObject({ ok: false });
    const { auditEvents } = await import("@/lib/db/schema");
    const { eq } = await import("drizzle-orm");
    const refused = await ctx.db.select().from(auditEvents).where(eq(auditEvents.outcome, "refused"));
    expect(refused.filter((r) => r.detail && JSON.stringify(r.detail).includes(request!.id))).toMatchObject([
      { action: "refund.approved", targetKind: "checkout", targetId: checkout.id },
    ]);
  });
});
