import { z } from "zod";
import { parsePosted, refusalOf } from "@/components/checkout/posted-form";
import { abandonPayment } from "@/lib/checkout/payments";
import { LOCALES } from "@/lib/checkout/types";
import { clientIp } from "@/lib/http/client-address";
import { seeOther } from "@/lib/http/problem";
import { enforce, limits } from "@/lib/http/rate-limit";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });
const posted = z.object({ lang: z.enum(LOCALES).default("en") });

/**
 * "Choose another way" pressed before the page's code ran, or with none: the browser posts it here
 * itself. The same stop as `POST /api/checkouts/{id}/payments/abandon`, rate limit included; the
 * answer is the form again, or the status page when the bank has authorised the payment meanwhile
 * (nothing to stop: the payer waits for its result), or the checkout saying what went wrong.
 */
export const POST = route({ params, rawBody: true }, async ({ params, rawBody, req, ctx }) => {
  const { lang } = parsePosted(posted, Object.fromEntries(new URLSearchParams(rawBody)));
  const checkout = `/checkout/${encodeURIComponent(params.checkoutId)}`;
  try {
    await enforce(ctx.db, `abandon:ip:${clientIp(req.headers)}`, limits().abandonsPerIp);
    await abandonPayment(params.checkoutId, ctx);
    return seeOther(`${checkout}?lang=${lang}&stopped=1`);
  } catch (err) {
    const refused = refusalOf(err);
    if (refused === "payment_authorised") return seeOther(`${checkout}/return`);
    if (refused) return seeOther(`${checkout}?lang=${lang}&refused=${refused}`);
    throw err;
  }
});
