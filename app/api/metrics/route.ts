import { env } from "@/lib/env";
import { NO_STORE, problem } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";
import { mayReadMetrics } from "@/lib/metrics/access";
import { exposition } from "@/lib/metrics/registry";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** This instance's metrics in the Prometheus text format: METRICS_TOKEN or this machine (README "Metrics"). */
export const GET = route({}, async ({ req }) => {
  if (!mayReadMetrics(req.headers, env().metricsToken, env().trustedProxyHops))
    return problem(
      "unauthorized",
      { detail: "Send Authorization: Bearer <METRICS_TOKEN>, or read them from this machine." },
      { "WWW-Authenticate": 'Bearer realm="metrics"' },
    );
  const { body, contentType } = await exposition();
  return new Response(body, { headers: { "Content-Type": contentType, ...NO_STORE } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
