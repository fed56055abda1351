import { z } from "zod";
import { readPayerHandle } from "@/lib/http/payer-handle";
import { seeOther } from "@/lib/http/problem";
import { route } from "@/lib/http/route";
import { linkReturnQuery, continueAfterLinking } from "@/lib/checkout/saved-accounts/link-return";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

/** The provider's redirect after account linking: on to the payment, or back to the checkout. */
export const GET = route({ params, query: linkReturnQuery }, async ({ params, query, req, ctx }) => {
  const next = await continueAfterLinking(params.checkoutId, query, readPayerHandle(req), ctx);
  return seeOther(next);
});
