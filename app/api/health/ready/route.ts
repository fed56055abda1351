import { readiness } from "@/lib/checkout/health";
import { json } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Readiness for a load balancer: 200 while the database answers (the provider's state in the body), 503 without it. */
export const GET = route({}, async ({ ctx }) => {
  const ready = await readiness(ctx);
  return json(ready, ready.status === "not_ready" ? 503 : 200);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
