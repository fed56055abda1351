import { z } from "zod";
import { env } from "@/lib/env";
import { payerHandleCookie, readPayerHandle } from "@/lib/http/payer-handle";
import { json } from "@/lib/http/problem";
import { limitPaymentStart } from "@/lib/http/rate-limit";
import { otherMethods, route } from "@/lib/http/route";
import { startLinking, startLinkingInput } from "@/lib/checkout/saved-accounts/linking";
import { forgetSavedAccount } from "@/lib/checkout/saved-accounts/paying";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

/** Save the payer's bank account while paying: answers where to send the payer to link it. */
export const POST = route(
  { params, body: startLinkingInput, ownPagesOnly: true },
  async ({ params, body, req, ctx }) => {
    await limitPaymentStart(ctx.db, params.checkoutId, req.headers);
    const { authorizationLink, handle } = await startLinking(params.checkoutId, body, readPayerHandle(req), ctx);
    return json({ authorizationLink }, 200, { "Set-Cookie": payerHandleCookie(handle, env().appUrl) });
  },
);

/** "Forget this account". */
export const DELETE = route({ params, ownPagesOnly: true }, ({ params, req, ctx }) =>
  forgetSavedAccount(params.checkoutId, readPayerHandle(req), ctx),
);

export const { GET, HEAD, PUT, PATCH, OPTIONS } = otherMethods("POST", "DELETE");
