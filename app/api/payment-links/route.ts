import { apiKeyActor, recordAudit } from "@/lib/audit/audit";
import { json } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";
import { createPaymentLink, createPaymentLinkInput, listPaymentLinks } from "@/lib/payment-links/links";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  { body: createPaymentLinkInput, apiKey: "payment_links:write" },
  async ({ body, ctx, caller }) => {
    const link = await createPaymentLink(body, ctx, `api_key:${caller!.id}`);
    await recordAudit(ctx.db, {
      actor: apiKeyActor(caller!),
      action: "payment_link.created",
      target: { kind: "payment_link", id: link.id },
      outcome: "succeeded",
    });
    return json(link, 201);
  },
);

/** The merchant's payment links, newest first. */
export const GET = route({ apiKey: "payment_links:read" }, async ({ ctx }) => ({ items: await listPaymentLinks(ctx) }));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
