import { z } from "zod";
import { createRefund, createRefundInput, listRefunds } from "@/lib/checkout/refunds";
import { env } from "@/lib/env";
import { json } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

// An Idempotency-Key makes a retried refund request return the first refund (README "Refunds").
// A refund whose outcome the provider left unknown is answered 202: taken, its outcome to follow.
export const POST = route(
  { params, body: createRefundInput, bearer: () => env().merchantApiKey },
  async ({ req, params, body, ctx }) => {
    const refund = await createRefund(params.checkoutId, body, "merchant-api", ctx, {
      idempotencyKey: req.headers.get("idempotency-key") ?? undefined,
    });
    return json(refund, refund.status === "unknown" ? 202 : 200);
  },
);

export const GET = route({ params, bearer: () => env().merchantApiKey }, async ({ params, ctx }) => ({
  refunds: await listRefunds(params.checkoutId, ctx),
}));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
