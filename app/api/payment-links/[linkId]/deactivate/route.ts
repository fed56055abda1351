import { z } from "zod";
import { apiKeyActor, recordAudit } from "@/lib/audit/audit";
import { otherMethods, route } from "@/lib/http/route";
import { deactivatePaymentLink } from "@/lib/payment-links/links";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ linkId: z.string().max(64) });

/** The link takes no more payments; checkouts made from it stay payable until they end. Repeating it is harmless. */
export const POST = route({ params, apiKey: "payment_links:write" }, async ({ params, ctx, caller }) => {
  const link = await deactivatePaymentLink(ctx, params.linkId);
  await recordAudit(ctx.db, {
    actor: apiKeyActor(caller!),
    action: "payment_link.deactivated",
    target: { kind: "payment_link", id: link.id },
    outcome: "succeeded",
  });
  return link;
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
