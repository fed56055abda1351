import { describe, expect, it } from "vitest";
import { testDbKinds } from "../../db/testing";
import { order, PSU, savedAccountsContext } from "./test-setup";
import { eq } from "drizzle-orm";
import { accountLinks } from "../../db/schema";
import { createCheckout } from "../create-checkout";
import { endLapsedLinks } from "./lapse";
import { startLinking } from "./linking";
import { LINK_PERIOD_MS, SavedAccountEndedError } from "./links";
import { newPayerHandle } from "./payer-handle";
import { forgetSavedAccount, savedAccountView } from "./paying";
import { accessTokenOf } from "./tokens";

describe.each(testDbKinds())("the end of a saved account (%s)", (kind) => {
  const s = savedAccountsContext(kind);

  it("ends the link after 90 days whatever the tokens say", async () => {
    const { query } = await s.linkWhilePaying("cust-90-days");
    const link = await s.linkOf(query.requestId!);
    const later = { ...s.ctx, now: () => new Date(Date.now() + LINK_PERIOD_MS + 60_000) };
    await expect(accessTokenOf(later, link)).rejects.toBeInstanceOf(SavedAccountEndedError);
    expect(await s.linkOf(link.id)).toMatchObject({ status: "expired", accessToken: null });
  });

  it("lets the worker wipe the tokens of links past 90 days and close linkings never finished", async () => {
    const { query } = await s.linkWhilePaying("cust-lapsed");
    const checkout = await createCheckout(order("cust-unfinished"), s.ctx);
    await startLinking(checkout.id, { bankId: "SWEDBANK_LT_SAND", termsAccepted: true }, undefined, s.ctx);
    const [unfinished] = await s.ctx.db.select().from(accountLinks).where(eq(accountLinks.checkoutId, checkout.id));
    expect(await endLapsedLinks(s.ctx)).toBe(0);
    expect(await s.linkOf(query.requestId!)).toMatchObject({ status: "active" });
    const later = { ...s.ctx, now: () => new Date(Date.now() + LINK_PERIOD_MS + 60_000) };
    expect(await endLapsedLinks(later)).toBeGreaterThanOrEqual(2);
    expect(await s.linkOf(query.requestId!)).toMatchObject({
      status: "expired",
      accessToken: null,
      refreshToken: null,
    });
    expect(await s.linkOf(unfinished!.id)).toMatchObject({ status: "failed", failureReason: "not_finished" });
  });

  it("forgets the account at the payer's request: tokens wiped, nothing offered any more", async () => {
    const { checkout, handle, query } = await s.linkWhilePaying("cust-forgets");
    await expect(forgetSavedAccount(checkout.id, newPayerHandle(), s.ctx)).resolves.toEqual({ forgotten: false });
    await expect(forgetSavedAccount(checkout.id, handle, s.ctx)).resolves.toEqual({ forgotten: true });
    expect(await s.linkOf(query.requestId!)).toMatchObject({
      status: "forgotten",
      accessToken: null,
      refreshToken: null,
    });
    const next = await createCheckout(order("cust-forgets"), s.ctx);
    expect(await savedAccountView(s.ctx, await s.loadRow(next.id), handle, PSU)).toBeNull();
  });
});
