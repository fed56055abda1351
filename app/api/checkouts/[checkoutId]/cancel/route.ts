import { z } from "zod";
import { cancelCheckout } from "@/lib/checkout/cancel-checkout";
import { apiKeyActor, recordAudit } from "@/lib/audit/audit";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

export const POST = route({ params, apiKey: "checkouts:write" }, async ({ params, ctx, caller }) => {
  const checkout = await cancelCheckout(params.checkoutId, ctx);
  await recordAudit(ctx.db, {
    actor: apiKeyActor(caller!),
    action: "checkout.cancelled",
    target: { kind: "checkout", id: params.checkoutId },
    outcome: "succeeded",
  });
  return checkout;
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
