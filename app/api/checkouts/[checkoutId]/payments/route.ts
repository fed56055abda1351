import { z } from "zod";
import { readPayerHandle } from "@/lib/http/payer-handle";
import { limitPaymentStart } from "@/lib/http/rate-limit";
import { route } from "@/lib/http/route";
import { startPaymentInput, startPayment } from "@/lib/checkout/start-payment";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

export const POST = route({ params, body: startPaymentInput }, async ({ params, body, req, ctx }) => {
  await limitPaymentStart(ctx.db, params.checkoutId, req.headers);
  return startPayment(params.checkoutId, body, ctx, readPayerHandle(req));
});
