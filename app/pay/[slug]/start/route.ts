import { z } from "zod";
import { postedLang, readPosted } from "@/components/checkout/posted-form";
import { CheckoutError } from "@/lib/checkout/errors";
import { seeOther } from "@/lib/http/problem";
import { RateLimitedError } from "@/lib/http/rate-limit";
import { otherMethods, route } from "@/lib/http/route";
import { getPaymentLink, isSlug } from "@/lib/payment-links/links";
import { checkoutFromLink, linkCheckoutHits, payerProblems } from "@/lib/payment-links/pay";
import { payLinkPath } from "@/lib/payment-links/page-state";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ slug: z.string().max(64) });
// Longer than any link allows, so that the page, not this parse, names the limit.
const postedPayment = postedLang.extend({
  amount: z.string().max(40).default(""),
  field: z.string().max(400).default(""),
});

/**
 * The link page's form: a checkout for this payer, then its page (303); or the link's page again
 * with what stopped it and what the payer typed. Only a form from this site's own pages.
 */
export const POST = route({ params, rawBody: true, ownPagesOnly: true }, async ({ params, rawBody, req, ctx }) => {
  const form = readPosted(postedPayment, rawBody);
  const link = isSlug(params.slug) ? await getPaymentLink(ctx, params.slug) : null;
  if (!link || link.slug !== params.slug) throw new CheckoutError("payment_link_not_found");
  const back = (extra: Record<string, string>) =>
    seeOther(payLinkPath(link.slug, { lang: form.lang, amount: form.amount, field: form.field, ...extra }));
  if (payerProblems(link, form).length > 0) return back({ checked: "1" });
  try {
    const checkoutId = await checkoutFromLink(ctx, link, { ...form, locale: form.lang }, linkCheckoutHits(req.headers));
    return seeOther(`/checkout/${encodeURIComponent(checkoutId)}?lang=${form.lang}`);
  } catch (err) {
    if (err instanceof RateLimitedError) return back({ problem: "rate_limited" });
    if (err instanceof CheckoutError && (err.code === "payment_link_busy" || err.code === "payment_link_ended"))
      return back({ problem: err.code });
    throw err;
  }
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
