import { getDb } from "../db";
import { env } from "../env";
import { createPisClient } from "../pis";
import type { CheckoutContext } from "./context";

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
    return {
      db: await getDb(),
      pis,
      config: {
        appUrl: e.appUrl,
        creditorName: e.creditorName,
        creditorIban: e.creditorIban,
        webhookSecret: e.pisWebhookSecret,
        confirmOrigins: [new URL(e.pisBaseUrl).origin, ...(e.sandbox ? [] : PROVIDER_HOSTED_ORIGINS)],
        checkoutTtlMs: 24 * 60 * 60 * 1000,
      },
    };
  })().catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}
