import { describe, expect, inject, it } from "vitest";
import { testDbKinds } from "../../db/testing";
import { order, PSU, refusal, sandboxPayment, savedAccountsContext } from "./test-setup";
import { eq } from "drizzle-orm";
import { accountLinks, notifications, paymentAttempts } from "../../db/schema";
import { createCheckout } from "../create-checkout";
import { startPayment } from "../start-payment";
import { SANDBOX_CONTROL, withPis } from "../test-context";
import { openToken, sealToken } from "../token-vault";
import { savedAccountView } from "./paying";
import { accessTokenOf, resealOldTokens } from "./tokens";

/** The payer withdraws the consent at the bank (only this linking: other tests share the sandbox). */
async function revokeAtBank(providerLinkId: string) {
  const res = await fetch(`${inject("sandboxUrl")}/_sandbox/linkings/${providerLinkId}/revoke`, {
    method: "POST",
    headers: SANDBOX_CONTROL,
  });
  expect(res.status).toBe(200);
}

describe.each(testDbKinds())("a saved account's tokens (%s)", (kind) => {
  const s = savedAccountsContext(kind);

  /** Pays a checkout one-click with the customer's saved account, as its button does. */
  const payOneClick = (checkoutId: string, attemptKey: string, handle: string, ctx = s.ctx) =>
    startPayment(checkoutId, { method: "bank", savedAccount: true, termsAccepted: false, attemptKey }, ctx, handle);

  /**
   * The provider's clock ran ahead of ours: it refuses the stored access token as expired (401
   * InvalidToken), while our stored expiry still says an hour is left.
   */
  const expireAtProvider = (linkId: string) =>
    s.ctx.db
      .update(accountLinks)
      .set({ accessToken: sealToken("expired-at-the-provider", s.ctx.config.tokenKeys) })
      .where(eq(accountLinks.id, linkId));

  it("refreshes the access token before it expires, once even when two requests race", async () => {
    const { query } = await s.linkWhilePaying("cust-refresh");
    const before = await s.linkOf(query.requestId!);
    const fresh = await accessTokenOf(s.ctx, before);
    expect(fresh).toBe(openToken(before.accessToken!, s.ctx.config.tokenKeys));

    // Four minutes left: inside the refresh window.
    await s.ctx.db
      .update(accountLinks)
      .set({ accessExpiresAt: new Date(Date.now() + 4 * 60_000) })
      .where(eq(accountLinks.id, before.id));
    const stale = await s.linkOf(before.id);
    const [a, b] = await Promise.all([accessTokenOf(s.ctx, stale), accessTokenOf(s.ctx, stale)]);
    const after = await s.linkOf(before.id);
    expect(after.status).toBe("active");
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    for (const token of [a, b]) expect(token).not.toBe(fresh);
    await expect(
      s.ctx.pis.auth.tokenContent(openToken(after.accessToken!, s.ctx.config.tokenKeys)),
    ).resolves.toMatchObject({ clientConsent: true });
  });

  it("pays one-click when the provider refuses an access token our clock still calls fresh: refreshes once, the link stays", async () => {
    const { query, handle } = await s.linkWhilePaying("cust-stale-token");
    const before = await s.linkOf(query.requestId!);
    // The refresh token is good for 89 more days.
    await expireAtProvider(before.id);

    const next = await createCheckout(order("cust-stale-token"), s.ctx);
    const paid = await payOneClick(next.id, "stale-token", handle);
    const payment = await sandboxPayment(new URL(paid.confirmLink).pathname.split("/").pop()!);
    expect(payment).toMatchObject({ linkingId: before.providerLinkId, step: "confirm" });
    const after = await s.linkOf(before.id);
    expect(after).toMatchObject({ status: "active", endedAt: null });
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // One attempt, and one payment at the provider: the refused call made none.
    const attempts = await s.ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, next.id));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ id: paid.attemptId, failureReason: null });
  });

  it("ends the link when the payer withdraws consent at the bank, and asks to link again", async () => {
    const { query, handle } = await s.linkWhilePaying("cust-revoked");
    const link = await s.linkOf(query.requestId!);
    await revokeAtBank(link.providerLinkId!);

    const next = await createCheckout(order("cust-revoked"), s.ctx);
    // The page still believes the access token fresh; the provider refuses it and then the refresh.
    expect(await savedAccountView(s.ctx, await s.loadRow(next.id), handle, PSU)).toMatchObject({
      state: "expired",
      bankId: "SWEDBANK_LT_SAND",
    });
    expect(await s.linkOf(link.id)).toMatchObject({ status: "revoked", accessToken: null, refreshToken: null });
    const pay = payOneClick(next.id, "after-revoke", handle);
    expect((await refusal(pay)).code).toBe("no_saved_account");
  });

  it("ends the link when a one-click payment finds the consent withdrawn: no payment, the payer links again", async () => {
    const { query, handle } = await s.linkWhilePaying("cust-revoked-pay");
    const link = await s.linkOf(query.requestId!);
    await revokeAtBank(link.providerLinkId!);

    // Paid straight away: the provider refuses the token we think fresh, then its refresh.
    const next = await createCheckout({ ...order("cust-revoked-pay"), notifyUrl: "https://shop.test/hook" }, s.ctx);
    const pay = payOneClick(next.id, "revoked-pay", handle);
    expect((await refusal(pay)).code).toBe("saved_account_ended");
    expect(await s.linkOf(link.id)).toMatchObject({ status: "revoked", accessToken: null, refreshToken: null });
    await expectSteppedAside(next.id);
  });

  /**
   * A one-click payment the provider refused before any payment existed: the attempt steps aside
   * (no failed payment), the checkout is open for the payer to choose a bank, and the merchant is
   * not told of a failed payment that never was.
   */
  async function expectSteppedAside(checkoutId: string) {
    const [attempt] = await s.ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkoutId));
    expect(attempt).toMatchObject({
      providerPaymentId: null,
      statusGroup: null,
      failureReason: "saved_account_refused",
    });
    expect(attempt!.abandonedAt).not.toBeNull();
    expect((await s.loadRow(checkoutId)).status).toBe("open");
    const told = await s.ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkoutId));
    expect(told.map((n) => n.event)).not.toContain("checkout.payment_failed");
    const byBank = await startPayment(
      checkoutId,
      { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `${checkoutId}-by-bank` },
      s.ctx,
    );
    expect(byBank.confirmLink).toBeTruthy();
  }

  it("ends the link when the provider refuses the payment again with a token refreshed just now", async () => {
    const { query, handle } = await s.linkWhilePaying("cust-revoked-between");
    const link = await s.linkOf(query.requestId!);
    await expireAtProvider(link.id);
    // The payer withdraws the consent at the bank between our refresh and the payment's retry.
    const auth = s.ctx.pis.auth;
    const withdrawnAfterRefresh = withPis(s.ctx, "auth", {
      refresh: (t: string) => auth.refresh(t).finally(() => revokeAtBank(link.providerLinkId!)),
    });

    const next = await createCheckout(order("cust-revoked-between"), s.ctx);
    const pay = payOneClick(next.id, "revoked-between", handle, withdrawnAfterRefresh);
    expect((await refusal(pay)).code).toBe("saved_account_ended");
    expect(await s.linkOf(link.id)).toMatchObject({ status: "revoked", failureReason: "payment_refused" });
    await expectSteppedAside(next.id);
  });

  it("after a key rotation, reading a saved account re-seals it with the newest key, so the old key can go and it still pays", async () => {
    const { query, handle } = await s.linkWhilePaying("cust-rotation");
    const oldKeys = s.ctx.config.tokenKeys;
    const rotated = {
      ...s.ctx,
      config: { ...s.ctx.config, tokenKeys: [{ id: "test2", key: Buffer.alloc(32, 9) }, ...oldKeys] },
    };
    const next = await createCheckout(order("cust-rotation"), s.ctx);
    expect(await savedAccountView(rotated, await s.loadRow(next.id), handle, PSU)).toMatchObject({ state: "active" });
    const link = await s.linkOf(query.requestId!);
    expect(link.accessToken).toMatch(/^v1\.test2\./);
    expect(link.refreshToken).toMatch(/^v1\.test2\./);

    // The old key removed: the account is still offered and pays.
    const newOnly = { ...rotated, config: { ...rotated.config, tokenKeys: rotated.config.tokenKeys.slice(0, 1) } };
    expect(await savedAccountView(newOnly, await s.loadRow(next.id), handle, PSU)).toMatchObject({ state: "active" });
    const paid = await payOneClick(next.id, "after-rotation", handle, newOnly);
    expect(paid.confirmLink).toBeTruthy();
  });

  it("a refresh whose link the worker re-sealed meanwhile (a key rotation) keeps the new tokens: the account still pays later", async () => {
    const { query } = await s.linkWhilePaying("cust-reseal-race");
    const rotated = {
      ...s.ctx,
      config: { ...s.ctx.config, tokenKeys: [{ id: "test4", key: Buffer.alloc(32, 4) }, ...s.ctx.config.tokenKeys] },
    };
    await s.ctx.db
      .update(accountLinks)
      .set({ accessExpiresAt: new Date(Date.now() + 4 * 60_000) })
      .where(eq(accountLinks.id, query.requestId!));
    const stale = await s.linkOf(query.requestId!);
    // While the provider answers the refresh, the worker's round re-seals the link with the new key.
    const resealedMeanwhile = withPis(rotated, "auth", {
      refresh: async (refreshToken) => {
        const token = await s.ctx.pis.auth.refresh(refreshToken);
        expect(await resealOldTokens(rotated)).toBeGreaterThanOrEqual(1);
        return token;
      },
    });
    await accessTokenOf(resealedMeanwhile, stale);
    // The refresh token kept is the one the provider gave last, so the next refresh is taken.
    await accessTokenOf(rotated, await s.linkOf(query.requestId!), { force: true });
    expect((await s.linkOf(query.requestId!)).status).toBe("active");
  });

  it("lets the worker re-seal the saved accounts nobody reads after a key rotation", async () => {
    const { query } = await s.linkWhilePaying("cust-rotation-idle");
    const rotated = {
      ...s.ctx,
      config: { ...s.ctx.config, tokenKeys: [{ id: "test3", key: Buffer.alloc(32, 3) }, ...s.ctx.config.tokenKeys] },
    };
    expect(await resealOldTokens(rotated)).toBeGreaterThanOrEqual(1);
    expect((await s.linkOf(query.requestId!)).accessToken).toMatch(/^v1\.test3\./);
    expect(await resealOldTokens(rotated)).toBe(0);
  });

  it("the worker's re-sealing passes over saved accounts whose key is gone: it is not held up by them, nor warns of them every round", async () => {
    const gone = [{ id: "gone", key: Buffer.alloc(32, 7) }];
    for (const customer of ["cust-unreadable-1", "cust-unreadable-2", "cust-unreadable-3"]) {
      const { query } = await s.linkWhilePaying(customer);
      await s.ctx.db
        .update(accountLinks)
        .set({ accessToken: sealToken("a", gone), refreshToken: sealToken("r", gone) })
        .where(eq(accountLinks.id, (await s.linkOf(query.requestId!)).id));
    }
    const { query } = await s.linkWhilePaying("cust-readable-old");
    const rotated = {
      ...s.ctx,
      config: { ...s.ctx.config, tokenKeys: [{ id: "test5", key: Buffer.alloc(32, 6) }, ...s.ctx.config.tokenKeys] },
    };
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(" "));
    try {
      // Rounds of two, as the worker's rounds of 100 would meet 100 such accounts.
      for (let round = 0; round < 50 && (await resealOldTokens(rotated, 2)) > 0; round++);
    } finally {
      console.warn = original;
    }
    expect((await s.linkOf(query.requestId!)).accessToken).toMatch(/^v1\.test5\./);
    expect(warnings.filter((w) => w.includes("gone"))).toEqual([]);
  });

  it("a saved account sealed with a key no longer configured is a clear state, not an error: the payer is asked to link again", async () => {
    const { handle } = await s.linkWhilePaying("cust-lost-key");
    const next = await createCheckout(order("cust-lost-key"), s.ctx);
    const lostKey = { ...s.ctx, config: { ...s.ctx.config, tokenKeys: [{ id: "other", key: Buffer.alloc(32, 5) }] } };
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(" "));
    try {
      expect(await savedAccountView(lostKey, await s.loadRow(next.id), handle, PSU)).toMatchObject({
        state: "expired",
        bankId: "SWEDBANK_LT_SAND",
      });
      const pay = payOneClick(next.id, "lost-key", handle, lostKey);
      expect((await refusal(pay)).code).toBe("saved_account_ended");
    } finally {
      console.warn = original;
    }
    expect(warnings.join("\n")).toMatch(/TOKEN_ENCRYPTION_KEYS/);
  });
});
