import { eq } from "drizzle-orm";
import { expect, inject } from "vitest";
import { openDb } from "../db/client";
import { paymentAttempts } from "../db/schema";
import { openTestDb, type DbKind } from "../db/testing";
import { createPisClient, PisError, webhookSignature } from "../pis";
import type { CheckoutContext } from "./context";
import { getCheckoutStatus } from "./checkout-status";
import { createCheckout } from "./create-checkout";
import { CheckoutError } from "./errors";
import { startPayment } from "./start-payment";

export const TEST_APP_URL = "http://shop.test";
export const TEST_WEBHOOK_SECRET = "sandbox-webhook-secret";
export const TEST_NOTIFY_SECRET = "test-notify-secret";

/** A checkout context on a fresh test database, talking to the real sandbox provider. */
export async function testContext(kind: DbKind, over: Partial<CheckoutContext> = {}) {
  const handle = await openTestDb(kind);
  const sandboxUrl = inject("sandboxUrl");
  const ctx: CheckoutContext = {
    db: handle.db,
    pis: createPisClient({
      baseUrl: `${sandboxUrl}/platform`,
      clientId: "sandbox-client-id",
      clientSecret: "sandbox-client-secret",
      timeoutMs: 5000,
    }),
    config: {
      appUrl: TEST_APP_URL,
      creditorName: "Demo Shop UAB",
      creditorIban: "LT601010012345678901",
      webhookSecret: TEST_WEBHOOK_SECRET,
      notifySecret: TEST_NOTIFY_SECRET,
      // As in sandbox mode: the tests' merchant receivers listen on this machine.
      allowPrivateUrls: true,
      confirmOrigins: [new URL(sandboxUrl).origin],
      checkoutTtlMs: 24 * 60 * 60 * 1000,
      pisTimeoutMs: 5000,
      tokenKeys: [{ id: "test1", key: Buffer.alloc(32, 7) }],
    },
    ...over,
  };
  /**
   * The same database as a second app instance sees it: its own connection pool on Postgres; on
   * PGlite, which serves one instance, the same handle (concurrent calls still interleave).
   */
  const sibling = async (): Promise<{ ctx: CheckoutContext; close: () => Promise<void> }> => {
    if (!handle.url) return { ctx: { ...ctx }, close: async () => {} };
    const other = await openDb({ databaseUrl: handle.url });
    return { ctx: { ...ctx, db: other.db }, close: other.close };
  };
  return { ctx, close: handle.close, sibling };
}

type Pis = CheckoutContext["pis"];

/**
 * The context with some of one area's provider calls replaced (a lost answer, a held call, a
 * counter around the real one); every other call still reaches the sandbox.
 */
export function withPis<A extends Exclude<keyof Pis, "version" | "profile">>(
  ctx: CheckoutContext,
  area: A,
  calls: Partial<Pis[A]>,
): CheckoutContext {
  return { ...ctx, pis: { ...ctx.pis, [area]: { ...ctx.pis[area], ...calls } } };
}

/**
 * The context with the provider's project endpoints down (an outage) and nothing of them cached
 * yet, as on an instance just restarted: payments and the rest still reach the sandbox.
 */
export function projectUnknown(ctx: CheckoutContext): CheckoutContext {
  const down = () => Promise.reject(new PisError({ kind: "network", operation: "getProjectSettings" }));
  return withPis(ctx, "project", { settings: down, paymentMethods: down });
}

/** A webhook exactly as the provider signs it, for our endpoint. */
export function signedWebhook(body: object, opts: { secret?: string; url?: string; timestamp?: number } = {}) {
  const raw = JSON.stringify(body);
  const ts = String(opts.timestamp ?? Date.now());
  const url = opts.url ?? `${TEST_APP_URL}/api/webhooks/pis`;
  return {
    raw,
    headers: new Headers({
      "X-Kevin-Timestamp": ts,
      "X-Kevin-Signature": webhookSignature(opts.secret ?? TEST_WEBHOOK_SECRET, url, ts, raw),
    }),
  };
}

/** The sandbox control API's documented test secret (lib/sandbox/README.md "Control API"). */
export const SANDBOX_CONTROL = { "X-Sandbox-Secret": "sandbox-control-secret" };

/** Makes the sandbox provider move a payment, as its control API allows (lib/sandbox/README.md). */
export async function forceProviderStatus(paymentId: string, body: Record<string, string>) {
  const res = await fetch(`${inject("sandboxUrl")}/_sandbox/payments/${paymentId}/status`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...SANDBOX_CONTROL },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`sandbox refused the forced status: ${res.status} ${await res.text()}`);
}

/** The CheckoutError a call is refused with (the test fails if it is not refused so). */
export async function refusal(p: Promise<unknown>): Promise<CheckoutError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CheckoutError);
  return err as CheckoutError;
}

/** A checkout paid for real at the sandbox: the payer chose a bank, the provider says ACSC, the status says paid. */
export async function paidCheckout(ctx: CheckoutContext, amount = "30.00", currency = "EUR", notifyUrl?: string) {
  const checkout = await createCheckout(
    {
      amount,
      currency,
      description: "Refund test",
      reference: `rf-${Math.random()}`,
      returnUrl: "http://localhost/r",
      notifyUrl,
    },
    ctx,
  );
  await startPayment(
    checkout.id,
    { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `key-${checkout.id.slice(3, 20)}` },
    ctx,
  );
  const [attempt] = await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkout.id));
  await forceProviderStatus(attempt!.providerPaymentId!, { bankStatus: "ACSC" });
  expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("paid");
  return { checkout, paymentId: attempt!.providerPaymentId! };
}
