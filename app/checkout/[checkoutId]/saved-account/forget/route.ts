import { z } from "zod";
import { checkoutPage, postedLang, readPosted } from "@/components/checkout/posted-form";
import { forgetSavedAccount } from "@/lib/checkout/saved-accounts/paying";
import { readPayerHandle } from "@/lib/http/payer-handle";
import { seeOther } from "@/lib/http/problem";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

/**
 * "Forget this account" pressed before the page's code ran, or with none: the browser posts it
 * here itself, and comes back to the checkout's form saying so. The cookie that names the payer's
 * browser is SameSite=Lax, so another site's form posting here forgets nothing.
 */
export const POST = route({ params, rawBody: true }, async ({ params, rawBody, req, ctx }) => {
  const { lang } = readPosted(postedLang, rawBody);
  await forgetSavedAccount(params.checkoutId, readPayerHandle(req), ctx);
  return seeOther(checkoutPage(params.checkoutId, { lang, saved: "forgotten" }));
});
