import { getDb } from "../db";
import { env } from "../env";
import { createPisClient } from "../pis";
import type { CheckoutContext } from "./context";
import { startWorker } from "./reconcile";

// Hosted-page hosts of the real provider (provider-api.md section 1); its API host differs.
const PROVIDER_HOSTED_ORIGINS = ["https://psd2.kevin.eu", "https://psd2-sandbox.kevin.eu"];

let cached: Promise<CheckoutContext> | undefined;

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
    });
    const ctx: CheckoutContext = {
      db: await getDb(),
      pis,
      config: {
        appUrl: e.appUrl,
        creditorName: e.creditorName,
        creditorIban: e.creditorIban,
        webhookSecret: e.pisWebhookSecret,
        notifySecret: e.merchantNotifySecret,
        confirmOrigins: [new URL(e.pisBaseUrl).origin, ...(e.sandbox ? [] : PROVIDER_HOSTED_ORIGINS)],
        checkoutTtlMs: e.checkoutTtlMs,
        pisTimeoutMs: e.pisTimeoutMs,
        tokenKeys: e.tokenKeys,
      },
    };
    // Expiry, reconciliation and merchant notifications run inside the app process: embedded
    // PGlite can only be opened by one process, and a long-running `next start` is the host.
    if (process.env.NEXT_PHASE !== "phase-production-build") startWorker(ctx, e.workerIntervalMs);
    return ctx;
  })().catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}
