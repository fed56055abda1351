import { IDEMPOTENT_REPLAYED, json } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";
import { env } from "@/lib/env";
import { createCheckout } from "@/lib/checkout/create-checkout";
import { createCheckoutInput } from "@/lib/checkout/create-checkout";
import { listCheckouts } from "@/lib/checkout/backoffice";
import { checkoutFilter } from "@/lib/checkout/backoffice-filter";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ body: createCheckoutInput, apiKey: "checkouts:write" }, async ({ body, req, ctx }) => {
  const idempotencyKey = req.headers.get("idempotency-key") ?? undefined;
  let replayed = false;
  const checkout = await createCheckout(body, ctx, { idempotencyKey, onReplay: () => (replayed = true) });
  return json(
    {
      id: checkout.id,
      url: `${env().appUrl}/checkout/${checkout.id}`,
      status: checkout.status,
      expiresAt: checkout.expiresAt,
    },
    200,
    replayed ? IDEMPOTENT_REPLAYED : {},
  );
});

/** The merchant's checkouts, newest first, 25 a page: to reconcile, e.g. by reference or by day. */
export const GET = route({ query: checkoutFilter, apiKey: "checkouts:read" }, ({ query, ctx }) =>
  listCheckouts(query, ctx),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
