import { z } from "zod";
import { missingFields, startRequestOf, type PaymentFormValues } from "@/components/checkout/payment-form";
import { parsePosted, postedForm, readPosted, refusalOf, refusedLocation } from "@/components/checkout/posted-form";
import { startLinking, startLinkingInput } from "@/lib/checkout/saved-accounts/linking";
import { startPayment, startPaymentInput } from "@/lib/checkout/start-payment";
import { env } from "@/lib/env";
import { payerHandleCookie, readPayerHandle } from "@/lib/http/payer-handle";
import { seeOther } from "@/lib/http/problem";
import { limitPaymentStart, paymentStartHits } from "@/lib/http/rate-limit";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

/**
 * Pay pressed before the page's code ran (a slow phone) or with none (JavaScript off): the browser
 * posts the form here itself. The same starts as the page's own Pay makes over the API (a payment,
 * one from the saved account, or saving the bank while paying), rate limits included; the answer
 * is the bank's page (303), or the checkout again with what stopped it and the payer's choices.
 */
export const POST = route({ params, rawBody: true }, async ({ params, rawBody, req, ctx }) => {
  const form = readPosted(postedForm, rawBody);
  const { checkoutId } = params;
  const back = (refused: string) => seeOther(refusedLocation(checkoutId, form, refused));
  const fromSaved = form.choice === "saved";

  const values: PaymentFormValues = {
    ...form,
    choice: form.choice === "saved" ? "here" : form.choice,
    terms: form.terms === "on",
    remember: false,
  };
  const missing = fromSaved ? [] : missingFields(values);
  if (missing.length > 0) return back(missing.length === 2 ? "both" : missing[0] === "bankId" ? "bank" : "terms");

  // Both checked before anything starts: only a form our page did not make fails here.
  const linking =
    form.choice === "here" && form.remember === "on"
      ? parsePosted(startLinkingInput, { bankId: form.bankId, termsAccepted: true, lang: form.lang })
      : null;
  const payment = parsePosted(
    startPaymentInput,
    fromSaved
      ? { method: "bank", savedAccount: true, termsAccepted: false, attemptKey: form.attemptKey, lang: form.lang }
      : startRequestOf(values, form.attemptKey, form.lang),
  );
  const payerHandle = readPayerHandle(req);
  try {
    if (linking) {
      await limitPaymentStart(ctx.db, checkoutId, req.headers);
      const { authorizationLink, handle } = await startLinking(checkoutId, linking, payerHandle, ctx);
      return seeOther(authorizationLink, { "Set-Cookie": payerHandleCookie(handle, env().appUrl) });
    }
    const hits = paymentStartHits(checkoutId, req.headers);
    return seeOther((await startPayment(checkoutId, payment, ctx, payerHandle, hits)).confirmLink);
  } catch (err) {
    const refused = refusalOf(err);
    if (refused) return back(refused);
    throw err;
  }
});
