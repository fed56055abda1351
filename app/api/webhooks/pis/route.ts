import { receivePisWebhook } from "@/lib/checkout/webhooks";
import { clientIp } from "@/lib/http/client-address";
import { json, problem } from "@/lib/http/problem";
import { limitFailures, limits } from "@/lib/http/rate-limit";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The raw body: the signature covers the exact bytes. An address that keeps sending webhooks not
// signed with our secret is refused for a while; the provider's own are never counted.
export const POST = route({ rawBody: true }, async ({ req, ctx, rawBody }) => {
  const result = await limitFailures(
    ctx.db,
    `webhook:ip:${clientIp(req.headers)}`,
    limits().forgedWebhooksPerIp,
    () => receivePisWebhook(rawBody, req.headers, ctx, new URL(req.url).searchParams),
    (r) => !r.authentic,
  );
  return result.refusal ? problem(result.refusal, { detail: result.outcome }) : json({ outcome: result.outcome });
});
