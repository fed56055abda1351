import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { accountLinks } from "../../db/schema";
import { testDbKinds } from "../../db/testing";
import { walkHostedPage } from "../../pis/test-helpers";
import { loadCheckout } from "../checkouts";
import type { CheckoutContext } from "../context";
import { CheckoutError } from "../errors";
import { SANDBOX_CONTROL, testContext } from "../test-context";
import { openToken } from "../token-vault";
import { endLapsedLinks } from "./lapse";
import { startLinking, linkReturnUrl, completeLinking } from "./linking";
import { LINK_PERIOD_MS, SavedAccountEndedError } from "./links";
import { newPayerHandle } from "./payer-handle";
import { forgetSavedAccount, savedAccountView } from "./paying";
import { accessTokenOf, resealOldTokens } from "./tokens";
import { createCheckout } from "../create-checkout";
import { continueAfterLinking, startPayment } from "../start-payment";

const PSU = {
  ipAddress: "127.0.0.1",
  ipPort: "443",
  userAgent: "vitest",
  httpMethod: "GET" as const,
  deviceId: "device-1",
};
const order = (customerId?: string, amount = "12.50") => ({
  amount,
  currency: "EUR",
  description: "Order",
  reference: "order-1",
  returnUrl: "https://shop.test/thanks",
  ...(customerId !== undefined && { customerId }),
});

async function refusal(p: Promise<unknown>): Promise<CheckoutError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CheckoutError);
  return err as CheckoutError;
}

async function sandboxPayment(paymentId: string) {
  const res = await fetch(`${inject("sandboxUrl")}/_sandbox/payments`, { headers: SANDBOX_CONTROL });
  const { data } = (await res.json()) as { data: { id: string; linkingId: string | null; step: string }[] };
  return data.find((p) => p.id === paymentId);
}

describe.each(testDbKinds())("saved bank accounts (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const linkOf = async (id: string) => (await ctx.db.select().from(accountLinks).where(eq(accountLinks.id, id)))[0]!;
  const activeLinkFor = async (customerId: string) =>
    (await ctx.db.select().from(accountLinks).where(eq(accountLinks.customerId, customerId))).find(
      (l) => l.status === "active",
    );

  /** The payer ticks "Remember", links at the sandbox bank, and comes back: returns where the browser goes next. */
  async function linkWhilePaying(customerId: string, handle?: string) {
    const checkout = await createCheckout(order(customerId), ctx);
    const started = await startLinking(checkout.id, { bankId: "SWEDBANK_LT_SAND", termsAccepted: true }, handle, ctx);
    const back = await walkHostedPage(started.authorizationLink, linkReturnUrl(ctx, checkout.id), {
      bankId: "SWEDBANK_LT_SAND",
    });
    const query = Object.fromEntries(back.searchParams);
    const next = await continueAfterLinking(checkout.id, query, started.handle, ctx);
    return { checkout, handle: started.handle, query, next };
  }

  it("links while paying, keeps only sealed tokens, and goes straight on to the payment", async () => {
    const { checkout, handle, query, next } = await linkWhilePaying("cust-link-1");
    const link = await linkOf(query.requestId!);
    expect(link).toMatchObject({
      status: "active",
      customerId: "cust-link-1",
      checkoutId: checkout.id,
      bankId: "SWEDBANK_LT_SAND",
    });
    expect(link.scopes).toEqual(["payments", "accounts_balances"]);
    expect(link.handleHash).not.toContain(handle);
    expect(link.accessToken).toMatch(/^v1\.test1\./);
    expect(link.expiresAt!.getTime() - link.createdAt.getTime()).toBeGreaterThan(LINK_PERIOD_MS - 60_000);
    // The token works at the provider once opened with the key, and only then.
    await expect(ctx.pis.auth.tokenContent(openToken(link.accessToken!, ctx.config.tokenKeys))).resolves.toMatchObject({
      bankId: "SWEDBANK_LT_SAND",
    });

    // The payer is sent to the provider's confirmation of a payment made with the linked account.
    const paymentId = new URL(next).pathname.split("/").pop()!;
    expect(new URL(next).origin).toBe(new URL(inject("sandboxUrl")).origin);
    expect(await sandboxPayment(paymentId)).toMatchObject({ linkingId: link.providerLinkId, step: "confirm" });

    // A reload of the return page neither links again nor starts a second payment.
    await expect(continueAfterLinking(checkout.id, query, handle, ctx)).resolves.toBe(next);
  });

  it("pays the next checkout of the same customer in this browser from the saved account", async () => {
    const { handle } = await linkWhilePaying("cust-oneclick");
    const next = await createCheckout(order("cust-oneclick"), ctx);
    const view = await savedAccountView(ctx, await loadRow(next.id), handle, PSU);
    expect(view).toMatchObject({ state: "active", bankId: "SWEDBANK_LT_SAND", covers: true });
    expect(view?.maskedIban).toMatch(/^LT\d\d •••• \d{4}$/);

    const res = await startPayment(
      next.id,
      { method: "bank", savedAccount: true, termsAccepted: false, attemptKey: "oneclick-1" },
      ctx,
      handle,
    );
    const payment = await sandboxPayment(new URL(res.confirmLink).pathname.split("/").pop()!);
    expect(payment?.linkingId).toBeTruthy();
    expect((await activeLinkFor("cust-oneclick"))?.lastUsedAt).not.toBeNull();

    // A large order: the balance does not cover it, and the page says so before paying.
    const big = await createCheckout(order("cust-oneclick", "999999.00"), ctx);
    expect(await savedAccountView(ctx, await loadRow(big.id), handle, PSU)).toMatchObject({
      state: "active",
      covers: false,
    });
  });

  const loadRow = async (id: string) => (await loadCheckout(ctx, id))!;

  it("never lets another payer use the link: another browser, or another customer in this browser", async () => {
    const { handle } = await linkWhilePaying("cust-owner");
    const otherBrowser = newPayerHandle();
    const sameCustomer = await createCheckout(order("cust-owner"), ctx);
    const otherCustomer = await createCheckout(order("cust-someone-else"), ctx);

    expect(await savedAccountView(ctx, await loadRow(sameCustomer.id), otherBrowser, PSU)).toBeNull();
    expect(await savedAccountView(ctx, await loadRow(otherCustomer.id), handle, PSU)).toBeNull();
    const pay = (checkoutId: string, h: string | undefined, key: string) =>
      startPayment(checkoutId, { method: "bank", savedAccount: true, termsAccepted: false, attemptKey: key }, ctx, h);
    expect((await refusal(pay(sameCustomer.id, otherBrowser, "other-browser"))).code).toBe("no_saved_account");
    expect((await refusal(pay(sameCustomer.id, undefined, "no-cookie"))).code).toBe("no_saved_account");
    expect((await refusal(pay(otherCustomer.id, handle, "other-customer"))).code).toBe("no_saved_account");
  });

  it("survives a double load of the return: the code is spent once and the link stays active", async () => {
    const checkout = await createCheckout(order("cust-double-load"), ctx);
    const started = await startLinking(
      checkout.id,
      { bankId: "SWEDBANK_LT_SAND", termsAccepted: true },
      undefined,
      ctx,
    );
    const back = await walkHostedPage(started.authorizationLink, linkReturnUrl(ctx, checkout.id), {
      bankId: "SWEDBANK_LT_SAND",
    });
    const query = Object.fromEntries(back.searchParams);
    const outcomes = await Promise.all([
      completeLinking(checkout.id, query, started.handle, ctx),
      completeLinking(checkout.id, query, started.handle, ctx),
    ]);
    expect(outcomes.map((o) => o.outcome)).toContain("linked");
    expect(await linkOf(query.requestId!)).toMatchObject({ status: "active" });
  });

  it("pays in the payer's language after linking in it", async () => {
    const checkout = await createCheckout(order("cust-lithuanian"), ctx);
    const started = await startLinking(
      checkout.id,
      { bankId: "SWEDBANK_LT_SAND", termsAccepted: true, lang: "lt" },
      undefined,
      ctx,
    );
    // The walk reads English buttons: the linking page itself is switched to English.
    const link = new URL(started.authorizationLink);
    link.searchParams.set("lang", "en");
    const back = await walkHostedPage(link.href, linkReturnUrl(ctx, checkout.id, "lt"), { bankId: "SWEDBANK_LT_SAND" });
    expect(back.searchParams.get("lang")).toBe("lt");
    const next = await continueAfterLinking(checkout.id, Object.fromEntries(back.searchParams), started.handle, ctx);
    expect(new URL(next).searchParams.get("lang")).toBe("lt");
  });

  it("keeps the link for the browser that started it when the payer returns in another one", async () => {
    const checkout = await createCheckout(order("cust-elsewhere"), ctx);
    const started = await startLinking(
      checkout.id,
      { bankId: "SWEDBANK_LT_SAND", termsAccepted: true },
      undefined,
      ctx,
    );
    const back = await walkHostedPage(started.authorizationLink, linkReturnUrl(ctx, checkout.id), {
      bankId: "SWEDBANK_LT_SAND",
    });
    const next = await continueAfterLinking(checkout.id, Object.fromEntries(back.searchParams), undefined, ctx);
    expect(next).toBe(`${ctx.config.appUrl}/checkout/${checkout.id}?saved=elsewhere`);
    expect(await savedAccountView(ctx, await loadRow(checkout.id), started.handle, PSU)).toMatchObject({
      state: "active",
    });
  });

  it("refuses linking without the Terms, without a named customer, and reports a declined consent", async () => {
    const anonymous = await createCheckout(order(), ctx);
    expect(
      (await refusal(startLinking(anonymous.id, { bankId: "SWEDBANK_LT_SAND", termsAccepted: true }, undefined, ctx)))
        .code,
    ).toBe("saving_unavailable");
    const checkout = await createCheckout(order("cust-declines"), ctx);
    expect(
      (await refusal(startLinking(checkout.id, { bankId: "SWEDBANK_LT_SAND", termsAccepted: false }, undefined, ctx)))
        .code,
    ).toBe("terms_required");
    const started = await startLinking(
      checkout.id,
      { bankId: "SWEDBANK_LT_SAND", termsAccepted: true },
      undefined,
      ctx,
    );
    const requestId = (await ctx.db.select().from(accountLinks).where(eq(accountLinks.checkoutId, checkout.id)))[0]!.id;
    const next = await continueAfterLinking(checkout.id, { requestId, status: "failure" }, started.handle, ctx);
    expect(next).toContain("?saved=declined");
    expect(await linkOf(requestId)).toMatchObject({ status: "failed", accessToken: null });
  });

  it("refreshes the access token before it expires, once even when two requests race", async () => {
    const { query } = await linkWhilePaying("cust-refresh");
    const before = await linkOf(query.requestId!);
    const fresh = await accessTokenOf(ctx, before);
    expect(fresh).toBe(openToken(before.accessToken!, ctx.config.tokenKeys));

    // Four minutes left: inside the refresh window.
    await ctx.db
      .update(accountLinks)
      .set({ accessExpiresAt: new Date(Date.now() + 4 * 60_000) })
      .where(eq(accountLinks.id, before.id));
    const stale = await linkOf(before.id);
    const [a, b] = await Promise.all([accessTokenOf(ctx, stale), accessTokenOf(ctx, stale)]);
    const after = await linkOf(before.id);
    expect(after.status).toBe("active");
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    for (const token of [a, b]) expect(token).not.toBe(fresh);
    await expect(ctx.pis.auth.tokenContent(openToken(after.accessToken!, ctx.config.tokenKeys))).resolves.toMatchObject(
      { clientConsent: true },
    );
  });

  it("ends the link when the payer withdraws consent at the bank, and asks to link again", async () => {
    const { query, handle } = await linkWhilePaying("cust-revoked");
    const link = await linkOf(query.requestId!);
    const res = await fetch(`${inject("sandboxUrl")}/_sandbox/linkings/${link.providerLinkId}/revoke`, {
      method: "POST",
      headers: SANDBOX_CONTROL,
    });
    expect(res.status).toBe(200);

    const next = await createCheckout(order("cust-revoked"), ctx);
    // The page still believes the access token fresh; the provider refuses it and then the refresh.
    expect(await savedAccountView(ctx, await loadRow(next.id), handle, PSU)).toMatchObject({
      state: "expired",
      bankId: "SWEDBANK_LT_SAND",
    });
    expect(await linkOf(link.id)).toMatchObject({ status: "revoked", accessToken: null, refreshToken: null });
    const pay = startPayment(
      next.id,
      { method: "bank", savedAccount: true, termsAccepted: false, attemptKey: "after-revoke" },
      ctx,
      handle,
    );
    expect((await refusal(pay)).code).toBe("no_saved_account");
  });

  it("after a key rotation, reading a saved account re-seals it with the newest key, so the old key can go and it still pays", async () => {
    const { query, handle } = await linkWhilePaying("cust-rotation");
    const oldKeys = ctx.config.tokenKeys;
    const rotated = {
      ...ctx,
      config: { ...ctx.config, tokenKeys: [{ id: "test2", key: Buffer.alloc(32, 9) }, ...oldKeys] },
    };
    const next = await createCheckout(order("cust-rotation"), ctx);
    expect(await savedAccountView(rotated, await loadRow(next.id), handle, PSU)).toMatchObject({ state: "active" });
    const link = await linkOf(query.requestId!);
    expect(link.accessToken).toMatch(/^v1\.test2\./);
    expect(link.refreshToken).toMatch(/^v1\.test2\./);

    // The old key removed: the account is still offered and pays.
    const newOnly = { ...rotated, config: { ...rotated.config, tokenKeys: rotated.config.tokenKeys.slice(0, 1) } };
    expect(await savedAccountView(newOnly, await loadRow(next.id), handle, PSU)).toMatchObject({ state: "active" });
    const paid = await startPayment(
      next.id,
      { method: "bank", savedAccount: true, termsAccepted: false, attemptKey: "after-rotation" },
      newOnly,
      handle,
    );
    expect(paid.confirmLink).toBeTruthy();
  });

  it("lets the worker re-seal the saved accounts nobody reads after a key rotation", async () => {
    const { query } = await linkWhilePaying("cust-rotation-idle");
    const rotated = {
      ...ctx,
      config: { ...ctx.config, tokenKeys: [{ id: "test3", key: Buffer.alloc(32, 3) }, ...ctx.config.tokenKeys] },
    };
    expect(await resealOldTokens(rotated)).toBeGreaterThanOrEqual(1);
    expect((await linkOf(query.requestId!)).accessToken).toMatch(/^v1\.test3\./);
    expect(await resealOldTokens(rotated)).toBe(0);
  });

  it("a saved account sealed with a key no longer configured is a clear state, not an error: the payer is asked to link again", async () => {
    const { handle } = await linkWhilePaying("cust-lost-key");
    const next = await createCheckout(order("cust-lost-key"), ctx);
    const lostKey = { ...ctx, config: { ...ctx.config, tokenKeys: [{ id: "other", key: Buffer.alloc(32, 5) }] } };
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(" "));
    try {
      expect(await savedAccountView(lostKey, await loadRow(next.id), handle, PSU)).toMatchObject({
        state: "expired",
        bankId: "SWEDBANK_LT_SAND",
      });
      const pay = startPayment(
        next.id,
        { method: "bank", savedAccount: true, termsAccepted: false, attemptKey: "lost-key" },
        lostKey,
        handle,
      );
      expect((await refusal(pay)).code).toBe("saved_account_ended");
    } finally {
      console.warn = original;
    }
    expect(warnings.join("\n")).toMatch(/TOKEN_ENCRYPTION_KEYS/);
  });

  it("ends the link after 90 days whatever the tokens say", async () => {
    const { query } = await linkWhilePaying("cust-90-days");
    const link = await linkOf(query.requestId!);
    const later = { ...ctx, now: () => new Date(Date.now() + LINK_PERIOD_MS + 60_000) };
    await expect(accessTokenOf(later, link)).rejects.toBeInstanceOf(SavedAccountEndedError);
    expect(await linkOf(link.id)).toMatchObject({ status: "expired", accessToken: null });
  });

  it("lets the worker wipe the tokens of links past 90 days and close linkings never finished", async () => {
    const { query } = await linkWhilePaying("cust-lapsed");
    const checkout = await createCheckout(order("cust-unfinished"), ctx);
    await startLinking(checkout.id, { bankId: "SWEDBANK_LT_SAND", termsAccepted: true }, undefined, ctx);
    const [unfinished] = await ctx.db.select().from(accountLinks).where(eq(accountLinks.checkoutId, checkout.id));
    expect(await endLapsedLinks(ctx)).toBe(0);
    expect(await linkOf(query.requestId!)).toMatchObject({ status: "active" });
    const later = { ...ctx, now: () => new Date(Date.now() + LINK_PERIOD_MS + 60_000) };
    expect(await endLapsedLinks(later)).toBeGreaterThanOrEqual(2);
    expect(await linkOf(query.requestId!)).toMatchObject({ status: "expired", accessToken: null, refreshToken: null });
    expect(await linkOf(unfinished!.id)).toMatchObject({ status: "failed", failureReason: "not_finished" });
  });

  it("forgets the account at the payer's request: tokens wiped, nothing offered any more", async () => {
    const { checkout, handle, query } = await linkWhilePaying("cust-forgets");
    await expect(forgetSavedAccount(checkout.id, newPayerHandle(), ctx)).resolves.toEqual({ forgotten: false });
    await expect(forgetSavedAccount(checkout.id, handle, ctx)).resolves.toEqual({ forgotten: true });
    expect(await linkOf(query.requestId!)).toMatchObject({
      status: "forgotten",
      accessToken: null,
      refreshToken: null,
    });
    const next = await createCheckout(order("cust-forgets"), ctx);
    expect(await savedAccountView(ctx, await loadRow(next.id), handle, PSU)).toBeNull();
  });
});
