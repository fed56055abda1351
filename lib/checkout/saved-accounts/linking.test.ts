import { describe, expect, inject, it } from "vitest";
import { testDbKinds } from "../../db/testing";
import { order, PSU, refusal, sandboxPayment, savedAccountsContext } from "./test-setup";
import { eq } from "drizzle-orm";
import { accountLinks } from "../../db/schema";
import { createCheckout } from "../create-checkout";
import { startPayment } from "../start-payment";
import { openToken } from "../token-vault";
import { continueAfterLinking, completeLinking } from "./link-return";
import { startLinking } from "./linking";
import { LINK_PERIOD_MS } from "./links";
import { newPayerHandle } from "./payer-handle";
import { savedAccountView } from "./paying";
import { projectUnknown } from "../test-context";

describe.each(testDbKinds())("saving a bank account while paying (%s)", (kind) => {
  const s = savedAccountsContext(kind);

  it("links while paying, keeps only sealed tokens, and goes straight on to the payment", async () => {
    const { checkout, handle, query, next } = await s.linkWhilePaying("cust-link-1");
    const link = await s.linkOf(query.requestId!);
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
    await expect(
      s.ctx.pis.auth.tokenContent(openToken(link.accessToken!, s.ctx.config.tokenKeys)),
    ).resolves.toMatchObject({
      bankId: "SWEDBANK_LT_SAND",
    });

    // The payer is sent to the provider's confirmation of a payment made with the linked account.
    const paymentId = new URL(next).pathname.split("/").pop()!;
    expect(new URL(next).origin).toBe(new URL(inject("sandboxUrl")).origin);
    expect(await sandboxPayment(paymentId)).toMatchObject({ linkingId: link.providerLinkId, step: "confirm" });

    // A reload of the return page neither links again nor starts a second payment.
    await expect(continueAfterLinking(checkout.id, query, handle, s.ctx)).resolves.toBe(next);
  });

  it("pays the next checkout of the same customer in this browser from the saved account", async () => {
    const { handle } = await s.linkWhilePaying("cust-oneclick");
    const next = await createCheckout(order("cust-oneclick"), s.ctx);
    const view = await savedAccountView(s.ctx, await s.loadRow(next.id), handle, PSU);
    expect(view).toMatchObject({ state: "active", bankId: "SWEDBANK_LT_SAND", covers: true });
    expect(view?.maskedIban).toMatch(/^LT\d\d •••• \d{4}$/);

    const res = await startPayment(
      next.id,
      { method: "bank", savedAccount: true, termsAccepted: false, attemptKey: "oneclick-1" },
      s.ctx,
      handle,
    );
    const payment = await sandboxPayment(new URL(res.confirmLink).pathname.split("/").pop()!);
    expect(payment?.linkingId).toBeTruthy();
    expect((await s.activeLinkFor("cust-oneclick"))?.lastUsedAt).not.toBeNull();

    // A large order: the balance does not cover it, and the page says so before paying.
    const big = await createCheckout(order("cust-oneclick", "999999.00"), s.ctx);
    expect(await savedAccountView(s.ctx, await s.loadRow(big.id), handle, PSU)).toMatchObject({
      state: "active",
      covers: false,
    });
  });

  it("never lets another payer use the link: another browser, or another customer in this browser", async () => {
    const { handle } = await s.linkWhilePaying("cust-owner");
    const otherBrowser = newPayerHandle();
    const sameCustomer = await createCheckout(order("cust-owner"), s.ctx);
    const otherCustomer = await createCheckout(order("cust-someone-else"), s.ctx);

    expect(await savedAccountView(s.ctx, await s.loadRow(sameCustomer.id), otherBrowser, PSU)).toBeNull();
    expect(await savedAccountView(s.ctx, await s.loadRow(otherCustomer.id), handle, PSU)).toBeNull();
    const pay = (checkoutId: string, h: string | undefined, key: string) =>
      startPayment(checkoutId, { method: "bank", savedAccount: true, termsAccepted: false, attemptKey: key }, s.ctx, h);
    expect((await refusal(pay(sameCustomer.id, otherBrowser, "other-browser"))).code).toBe("no_saved_account");
    expect((await refusal(pay(sameCustomer.id, undefined, "no-cookie"))).code).toBe("no_saved_account");
    expect((await refusal(pay(otherCustomer.id, handle, "other-customer"))).code).toBe("no_saved_account");
  });

  it("survives a double load of the return: the code is spent once and the link stays active", async () => {
    const { checkout, started, query } = await s.linkAtBank("cust-double-load");
    const outcomes = await Promise.all([
      completeLinking(checkout.id, query, started.handle, s.ctx),
      completeLinking(checkout.id, query, started.handle, s.ctx),
    ]);
    expect(outcomes).toContain("linked");
    expect(await s.linkOf(query.requestId!)).toMatchObject({ status: "active" });
  });

  it("pays in the payer's language after linking in it", async () => {
    const { checkout, started, back } = await s.linkAtBank("cust-lithuanian", { lang: "lt" });
    expect(back.searchParams.get("lang")).toBe("lt");
    const next = await continueAfterLinking(checkout.id, Object.fromEntries(back.searchParams), started.handle, s.ctx);
    expect(new URL(next).searchParams.get("lang")).toBe("lt");
  });

  it("a linking finished in another browser saves nothing: not for the browser that started it, not for the one that came back", async () => {
    // A customer sends the provider's link to someone else, who consents at their own bank.
    const { checkout, started, back, query } = await s.linkAtBank("cust-elsewhere");
    const stranger = newPayerHandle();
    const next = await continueAfterLinking(checkout.id, Object.fromEntries(back.searchParams), stranger, s.ctx);
    expect(next).toBe(`${s.ctx.config.appUrl}/checkout/${checkout.id}?saved=elsewhere`);
    expect(await s.linkOf(query.requestId!)).toMatchObject({
      status: "failed",
      failureReason: "other_browser",
      accessToken: null,
      refreshToken: null,
    });
    const nextCheckout = await createCheckout(order("cust-elsewhere"), s.ctx);
    for (const handle of [started.handle, stranger])
      expect((await savedAccountView(s.ctx, await s.loadRow(nextCheckout.id), handle, PSU))?.state).not.toBe("active");
    // The same return then brought to the browser that started it (the code passed back by hand)
    // finds the linking ended: nothing is exchanged, nothing is paid, and it is told why.
    expect(await continueAfterLinking(checkout.id, query, started.handle, s.ctx)).toBe(next);
    expect(await s.activeLinkFor("cust-elsewhere")).toBeUndefined();
  });

  it("a return without the cookie (a bank app's own browser) saves nothing either", async () => {
    const { checkout, query } = await s.linkAtBank("cust-no-cookie");
    expect(await continueAfterLinking(checkout.id, query, undefined, s.ctx)).toContain("?saved=elsewhere");
    expect(await s.activeLinkFor("cust-no-cookie")).toBeUndefined();
  });

  it("linking asked while the provider cannot say whether the shop may link accounts is answered 'try again'", async () => {
    const checkout = await createCheckout(order("cust-outage"), s.ctx);
    const start = { bankId: "SWEDBANK_LT_SAND", termsAccepted: true };
    expect(await refusal(startLinking(checkout.id, start, undefined, projectUnknown(s.ctx)))).toMatchObject({
      status: 502,
      code: "provider_error",
    });
    expect((await startLinking(checkout.id, start, undefined, s.ctx)).handle).toBeTruthy();
  });

  it("refuses linking without the Terms, without a named customer, and reports a declined consent", async () => {
    const anonymous = await createCheckout(order(), s.ctx);
    expect(
      (await refusal(startLinking(anonymous.id, { bankId: "SWEDBANK_LT_SAND", termsAccepted: true }, undefined, s.ctx)))
        .code,
    ).toBe("saving_unavailable");
    const checkout = await createCheckout(order("cust-declines"), s.ctx);
    expect(
      (await refusal(startLinking(checkout.id, { bankId: "SWEDBANK_LT_SAND", termsAccepted: false }, undefined, s.ctx)))
        .code,
    ).toBe("terms_required");
    const started = await startLinking(
      checkout.id,
      { bankId: "SWEDBANK_LT_SAND", termsAccepted: true },
      undefined,
      s.ctx,
    );
    const requestId = (await s.ctx.db.select().from(accountLinks).where(eq(accountLinks.checkoutId, checkout.id)))[0]!
      .id;
    const next = await continueAfterLinking(checkout.id, { requestId, status: "failure" }, started.handle, s.ctx);
    expect(next).toContain("?saved=declined");
    expect(await s.linkOf(requestId)).toMatchObject({ status: "failed", accessToken: null });
  });
});
