import { z } from "zod";
import { createRefund, createRefundInput, listRefunds } from "@/lib/checkout/refunds";
import { apiKeyActor, recordAudit } from "@/lib/audit/audit";
import { IDEMPOTENT_REPLAYED, json } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

// An Idempotency-Key makes a retried refund request return the first refund (README "Refunds").
// A refund whose outcome the provider left unknown is answered 202: taken, its outcome to follow.
export const POST = route(
  { params, body: createRefundInput, apiKey: "refunds:write" },
  async ({ req, params, body, ctx, caller }) => {
    let replayed = false;
    const refund = await createRefund(params.checkoutId, body, "merchant-api", ctx, {
      idempotencyKey: req.headers.get("idempotency-key") ?? undefined,
      onReplay: () => (replayed = true),
    });
    // A replay is the earlier request's refund, already written down.
    if (!replayed)
      await recordAudit(ctx.db, {
        actor: apiKeyActor(caller!),
        action: "refund.created",
        target: { kind: "checkout", id: params.checkoutId },
        outcome: refund.status === "failed" ? "failed" : "succeeded",
        detail: { amount: refund.amount, refundId: refund.id },
      });
    return json(refund, refund.status === "unknown" ? 202 : 200, replayed ? IDEMPOTENT_REPLAYED : {});
  },
);

export const GET = route({ params, apiKey: "checkouts:read" }, async ({ params, ctx }) => ({
  refunds: await listRefunds(params.checkoutId, ctx),
}));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
