import { closeDb, getDb } from "../db";
import { databaseFailure, env } from "../env";
import { watchDatabase } from "../metrics/collect";
import { checkoutMetrics, recordProviderCall, recordRound } from "../metrics/record";
import { createPisClient } from "../pis";
import { startRetention } from "../retention/prune";
import { observeRounds } from "../rounds";
import type { CheckoutContext } from "./context";
import { setCheckoutObserver } from "./observer";
import { startOutbox } from "./outbox";
import { startWorker } from "./reconcile";

let cached: Promise<CheckoutContext> | undefined;
let stopBackground: (() => Promise<void>) | undefined;

/** The context of this server process, built from the validated settings. */
export function appContext(): Promise<CheckoutContext> {
  cached ??= (async () => {
    const e = env();
    const pis = createPisClient({
      baseUrl: e.pisBaseUrl,
      version: e.pisApiVersion,
      clientId: e.pisClientId,
      clientSecret: e.pisClientSecret,
      timeoutMs: e.pisTimeoutMs,
      observe: recordProviderCall,
    });
    // A deployment's likeliest first failure: say which setting, never its password.
    const db = await getDb().catch((err: unknown) => {
      throw new Error(databaseFailure(e, err), { cause: err });
    });
    // The app's metrics (lib/metrics): the one place the checkout domain is told who listens.
    watchDatabase(db);
    setCheckoutObserver(checkoutMetrics);
    observeRounds(recordRound);
    const ctx: CheckoutContext = {
      db,
      pis,
      config: {
        appUrl: e.appUrl,
        creditorName: e.creditorName,
        creditorIban: e.creditorIban,
        webhookSecret: e.pisWebhookSecret,
        notifySecret: e.merchantNotifySecret,
        allowPrivateUrls: e.allowPrivateUrls,
        confirmOrigins: e.confirmOrigins,
        checkoutTtlMs: e.checkoutTtlMs,
        pisTimeoutMs: e.pisTimeoutMs,
        tokenKeys: e.tokenKeys,
      },
    };
    return ctx;
  })().catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

/**
 * Starts this instance's background work (expiry, reconciliation, refund checks; the outbox;
 * retention), once per server: called from instrumentation.ts `register()`. Every instance runs
 * it; the work is claimed row by row in the database (ADR 13), and embedded PGlite serves one
 * instance.
 */
export async function startBackgroundWork(): Promise<void> {
  let ctx: CheckoutContext;
  try {
    ctx = await appContext();
  } catch (err) {
    // An instance that cannot reach its database (or finds the embedded one in use) stops with
    // one line rather than serving errors; a supervisor or load balancer brings up another.
    console.error(`start-up failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  if (stopBackground) return;
  if (env().insecureSettings)
    console.warn("ALLOW_INSECURE_SETTINGS=true: the deployment checks are off (a test rig, never a deployment)");
  const interval = env().workerIntervalMs;
  // The outbox runs on its own, every second at most: notifications must not wait behind a
  // reconciliation pass that is asking a slow provider about a hundred payments.
  const stops = [
    startWorker(ctx, interval),
    startOutbox(ctx, { pollMs: Math.min(1000, interval) }),
    startRetention(ctx.db, env().retentionDays),
  ];
  stopBackground = async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

/**
 * Shutdown, in the order that loses nothing: the background work stops taking jobs and finishes or
 * gives back the ones it holds; then, once the server has answered its last request (the caller
 * waits for that), the database closes.
 */
export async function stopBackgroundWork(): Promise<void> {
  const stop = stopBackground;
  stopBackground = undefined;
  await stop?.();
}

export async function closeDatabase(): Promise<void> {
  await closeDb();
}
