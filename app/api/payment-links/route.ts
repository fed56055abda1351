import { apiKeyActor, recordAudit } from "@/lib/audit/audit";
import { IDEMPOTENT_REPLAYED, json } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";
import {
  createPaymentLink,
  createPaymentLinkInput,
  paymentLinkListQuery,
  paymentLinkPage,
} from "@/lib/payment-links/links";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  { body: createPaymentLinkInput, apiKey: "payment_links:write" },
  async ({ body, req, ctx, caller }) => {
    let replayed = false;
    const link = await createPaymentLink(body, ctx, `api_key:${caller!.id}`, {
      idempotencyKey: req.headers.get("idempotency-key") ?? undefined,
      onReplay: () => (replayed = true),
    });
    // A replay made nothing: no second audit row, and it says so.
    if (replayed) return json(link, 201, IDEMPOTENT_REPLAYED);
    await recordAudit(ctx.db, {
      actor: apiKeyActor(caller!),
      action: "payment_link.created",
      target: { kind: "payment_link", id: link.id },
      outcome: "succeeded",
    });
    return json(link, 201);
  },
);

/** The merchant's payment links, newest first, a page at a time. */
export const GET = route({ query: paymentLinkListQuery, apiKey: "payment_links:read" }, ({ query, ctx }) =>
  paymentLinkPage(ctx, query.page),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
