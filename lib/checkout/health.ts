import { sql } from "drizzle-orm";
import type { PisError } from "../pis";
import type { CheckoutContext } from "./context";
import type { Readiness } from "./contract";
import { withinMs } from "./poll";

const CHECK_TIMEOUT_MS = 2_000;
// Load balancers ask every few seconds, from every instance: the provider is asked at most this often.
const PROVIDER_CHECK_EVERY_MS = 10_000;

type ProviderState = Readiness["provider"];

let lastProviderCheck: { at: number; state: ProviderState } | undefined;

/**
 * What a failed call says about this deployment, as the word readiness answers and a log line
 * that tells the operator which setting to look at. The provider answering 401 is not an outage:
 * only our settings will fix it.
 */
function diagnose(err: unknown): { state: ProviderState; why: string } {
  if (err === null) return { state: "unreachable", why: `no answer within ${CHECK_TIMEOUT_MS} ms` };
  // Read as a PisError by its fields: a server's bundles may each hold their own copy of lib/pis.
  const e = err as Partial<PisError>;
  if (e.kind === "network" || e.kind === "timeout") {
    const code = (e.cause as { code?: unknown } | undefined)?.code;
    return {
      state: "unreachable",
      why: `${e.message}${typeof code === "string" ? ` ${code}` : ""} (check PIS_BASE_URL's host and this machine's way out)`,
    };
  }
  if (e.httpStatus === 401 || e.httpStatus === 403)
    return { state: "credentials_refused", why: `${e.message} (check PIS_CLIENT_ID and PIS_CLIENT_SECRET)` };
  if (e.httpStatus === 404 || e.kind === "parse")
    return {
      state: "wrong_address",
      why: `${e.message} (PIS_BASE_URL must be the provider's base without the version, e.g. https://api.kevin.eu/platform)`,
    };
  return { state: "failing", why: e.message ?? String(err) };
}

async function providerState(ctx: CheckoutContext): Promise<ProviderState> {
  if (lastProviderCheck && Date.now() - lastProviderCheck.at < PROVIDER_CHECK_EVERY_MS) return lastProviderCheck.state;
  const outcome = await withinMs(
    ctx.pis.general.countries().then(
      () => ({ state: "ok" as const, why: "" }),
      (err: unknown) => diagnose(err),
    ),
    CHECK_TIMEOUT_MS,
  );
  const { state, why } = outcome ?? diagnose(null);
  // Said when it changes, not on every check: once per incident in the log, per instance.
  if (state !== (lastProviderCheck?.state ?? "ok")) {
    if (state === "ok") console.info("readiness: the provider answers again");
    else console.warn(`readiness: provider ${state}: ${why}`);
  }
  lastProviderCheck = { at: Date.now(), state };
  return state;
}

/**
 * Whether this instance can do its work, in words a load balancer and an operator can use and
 * nothing more (no hosts, versions or error text: those go to the log). Without its database an
 * instance is not ready; without the provider it still serves pages and status, and every instance
 * is in the same position, so it stays in rotation, degraded.
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
    providerState(ctx),
  ]);
  return {
    status: !database ? "not_ready" : provider === "ok" ? "ready" : "degraded",
    database: database ? "ok" : "unreachable",
    provider,
  };
}
