import { receivePisWebhook } from "@/lib/checkout/webhooks";
import { json } from "@/lib/http/problem";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The raw body is read here, not parsed by the wrapper: the signature covers the exact bytes.
export const POST = route({}, async ({ req, ctx }) => {
  const result = await receivePisWebhook(await req.text(), req.headers, ctx, new URL(req.url).searchParams);
  return json({ outcome: result.outcome }, result.httpStatus);
});
