import { receivePisWebhook } from "@/lib/checkout/webhooks";
import { clientKey } from "@/lib/http/client-address";
import { NO_STORE, problem } from "@/lib/http/problem";
import { enforce, limits } from "@/lib/http/rate-limit";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The raw body: the signature covers the exact bytes. The signature is checked first (no database
// needed); only deliveries not signed with our secret count against the sender's address, which
// is refused for a while once it has sent too many. The provider's own never touch the limit.
// A delivery taken is answered 200 with no body: the provider reads only the status, and Next
// pipes any body through a web stream, about a tenth of a webhook's cost (ADR 19). What was done
// with it is in a header, for whoever reads the answer by hand.
export const POST = route({ rawBody: true }, async ({ req, ctx, rawBody }) => {
  const result = await receivePisWebhook(rawBody, req.headers, ctx, new URL(req.url).searchParams);
  if (!result.authentic) await enforce(ctx.db, `webhook:ip:${clientKey(req.headers)}`, limits().forgedWebhooksPerIp);
  if (result.refusal) return problem(result.refusal, { detail: result.outcome });
  return new Response(null, { headers: { ...NO_STORE, "Webhook-Outcome": result.outcome } });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
