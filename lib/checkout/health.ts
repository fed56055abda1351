import { sql } from "drizzle-orm";
import type { CheckoutContext } from "./context";
import type { Readiness } from "./contract";
import { withinMs } from "./poll";

const CHECK_TIMEOUT_MS = 2_000;
// Load balancers ask every few seconds, from every instance: the provider is asked at most this often.
const PROVIDER_CHECK_EVERY_MS = 10_000;

let lastProviderCheck: { at: number; ok: boolean } | undefined;

async function providerReachable(ctx: CheckoutContext): Promise<boolean> {
  if (lastProviderCheck && Date.now() - lastProviderCheck.at < PROVIDER_CHECK_EVERY_MS) return lastProviderCheck.ok;
  const ok =
    (await withinMs(
      ctx.pis.general.countries().then(
        () => true,
        () => false,
      ),
      CHECK_TIMEOUT_MS,
    )) === true;
  lastProviderCheck = { at: Date.now(), ok };
  return ok;
}

/**
 * Whether this instance can do its work, in words a load balancer and an operator can use and
 * nothing more (no hosts, versions or error text). Without its database an instance is not ready;
 * without the provider it still serves pages and status, and every instance is in the same
 * position, so it stays in rotation, degraded.
 */
export async function readiness(ctx: CheckoutContext): Promise<Readiness> {
  const [database, provider] = await Promise.all([
    withinMs(
      ctx.db.execute(sql`select 1`).then(
        () => true,
        () => false,
      ),
      CHECK_TIMEOUT_MS,
    ).then((ok) => ok === true),
    providerReachable(ctx),
  ]);
  return {
    status: !database ? "not_ready" : provider ? "ready" : "degraded",
    database: database ? "ok" : "unreachable",
    provider: provider ? "ok" : "unreachable",
  };
}
