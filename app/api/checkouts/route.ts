import { json } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";
import { env } from "@/lib/env";
import { createCheckout } from "@/lib/checkout/create-checkout";
import { createCheckoutInput } from "@/lib/checkout/create-checkout";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  { body: createCheckoutInput, bearer: () => env().merchantApiKey },
  async ({ body, req, ctx }) => {
    const idempotencyKey = req.headers.get("idempotency-key") ?? undefined;
    const checkout = await createCheckout(body, ctx, { idempotencyKey });
    return json(
      {
        id: checkout.id,
        url: `${env().appUrl}/checkout/${checkout.id}`,
        status: checkout.status,
        expiresAt: checkout.expiresAt,
      },
      200,
    );
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
