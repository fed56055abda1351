import { z } from "zod";
import { env } from "@/lib/env";
import { problem } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";
import { completePaymentInput, completeTestPayment } from "@/lib/test-helpers/complete-payment";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

/**
 * For a merchant's own tests, in sandbox mode only: pays, fails or cancels the checkout's payment
 * at the sandbox bank, as a payer would (README "Test your integration"). With a real provider
 * the address does not exist.
 */
export const POST = route(
  { params, body: completePaymentInput, apiKey: "checkouts:write" },
  async ({ params, body, ctx }) => {
    const settings = env();
    if (!settings.sandbox)
      return problem("not_found", { detail: "Test helpers exist only in sandbox mode (no PIS_BASE_URL)." });
    return completeTestPayment(
      ctx,
      { pisBaseUrl: settings.pisBaseUrl, controlSecret: settings.sandboxControlSecret },
      params.checkoutId,
      body,
    );
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
