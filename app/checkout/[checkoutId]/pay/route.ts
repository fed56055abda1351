import { z } from "zod";
import { CHOICES, missingFields, startRequestOf } from "@/components/checkout/payment-form";
import { CheckoutError } from "@/lib/checkout/errors";
import { startPayment, startPaymentInput } from "@/lib/checkout/start-payment";
import { LOCALES } from "@/lib/checkout/types";
import { RateLimitedError, paymentStartHits } from "@/lib/http/rate-limit";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

/** The payment form as the browser posts it by itself, named as the form names its fields. */
const postedForm = z.object({
  choice: z.enum(CHOICES).default("here"),
  country: z.string().max(2).default(""),
  bankId: z.string().max(64).default(""),
  terms: z.literal("on").optional(),
  attemptKey: z.string().max(64),
  lang: z.enum(LOCALES).default("en"),
});

/**
 * Pay pressed before the page's code ran (a slow phone) or with none (JavaScript off): the browser
 * posts the form here itself. The same start as `POST /api/checkouts/{id}/payments`, rate limits
 * included; the answer is the bank's page (303), or the checkout again with what stopped it.
 */
export const POST = route({ params, rawBody: true }, async ({ params, rawBody, req, ctx }) => {
  const parsed = postedForm.safeParse(Object.fromEntries(new URLSearchParams(rawBody)));
  if (!parsed.success) throw invalidForm(parsed.error);
  const form = parsed.data;
  const back = (refused: string) =>
    seeOther(`/checkout/${encodeURIComponent(params.checkoutId)}?lang=${form.lang}&refused=${refused}`);

  const values = { ...form, terms: form.terms === "on", remember: false };
  const missing = missingFields(values);
  if (missing.length > 0) return back(missing.length === 2 ? "both" : missing[0] === "bankId" ? "bank" : "terms");

  const input = startPaymentInput.safeParse(startRequestOf(values, form.attemptKey, form.lang));
  if (!input.success) throw invalidForm(input.error);
  try {
    const { confirmLink } = await startPayment(
      params.checkoutId,
      input.data,
      ctx,
      undefined,
      paymentStartHits(params.checkoutId, req.headers),
    );
    return seeOther(confirmLink);
  } catch (err) {
    if (err instanceof CheckoutError && err.code !== "checkout_not_found") return back(err.code);
    if (err instanceof RateLimitedError) return back("rate_limited");
    throw err;
  }
});

/** Only a form not made by our page gets here: answered as the API answers, naming the fields. */
function invalidForm(error: z.ZodError): CheckoutError {
  return new CheckoutError("invalid_request", {
    detail: "The payment form is not valid.",
    errors: error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
  });
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}
