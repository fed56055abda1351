import { z } from "zod";
import { readPayerHandle } from "@/lib/http/payer-handle";
import { paymentStartHits } from "@/lib/http/rate-limit";
import { otherMethods, route } from "@/lib/http/route";
import { startPaymentInput, startPayment } from "@/lib/checkout/start-payment";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

export const POST = route(
  { params, body: startPaymentInput, ownPagesOnly: true },
  async ({ params, body, req, ctx }) => {
    // The rate limits are counted in the payment start's first statement (one round trip less).
    return startPayment(
      params.checkoutId,
      body,
      ctx,
      readPayerHandle(req),
      paymentStartHits(params.checkoutId, req.headers),
    );
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
