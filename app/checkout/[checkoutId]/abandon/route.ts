import { z } from "zod";
import { checkoutPage, postedLang, readPosted, refusalOf } from "@/components/checkout/posted-form";
import { abandonPayment } from "@/lib/checkout/payments";
import { clientKey } from "@/lib/http/client-address";
import { seeOther } from "@/lib/http/problem";
import { enforce, limits } from "@/lib/http/rate-limit";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

/**
 * "Choose another way" pressed before the page's code ran, or with none: the browser posts it here
 * itself. The same stop as `POST /api/checkouts/{id}/payments/abandon`, rate limit included; the
 * answer is the form again, or the status page when the bank has authorised the payment meanwhile
 * (nothing to stop: the payer waits for its result), or the checkout saying what went wrong.
 */
export const POST = route({ params, rawBody: true }, async ({ params, rawBody, req, ctx }) => {
  const { lang } = readPosted(postedLang, rawBody);
  const { checkoutId } = params;
  try {
    await enforce(ctx.db, `abandon:ip:${clientKey(req.headers)}`, limits().abandonsPerIp);
    await abandonPayment(checkoutId, ctx);
    return seeOther(checkoutPage(checkoutId, { lang, stopped: "1" }));
  } catch (err) {
    const refused = refusalOf(err);
    // Nothing to stop: the payment is the payer's, paid or authorised; its status page follows it.
    if (refused === "payment_authorised" || refused === "already_paid")
      return seeOther(`/checkout/${encodeURIComponent(checkoutId)}/return`);
    if (refused) return seeOther(checkoutPage(checkoutId, { lang, refused }));
    throw err;
  }
});
