import { describe, expect, it } from "vitest";
import { testDbKinds } from "../db/testing";
import { checkoutDetailForStaff } from "./backoffice";
import type { CheckoutContext } from "./context";
import { RETRY_DELAYS_MS } from "./notifications";
import { deliverDueNotifications } from "./outbox";
import { notificationsContext } from "./notifications-test-setup";
import { resendNotification } from "./resend-notification";

const DAY_MS = 24 * 3600_000;

describe.each(testDbKinds())("staff send a given-up notification again (%s)", (kind) => {
  const s = notificationsContext(kind);
  // Each delivery of a test runs on a clock of its own, later than the last: the back-off passes.
  let clock = Date.now();
  const later = (): CheckoutContext => {
    clock += 3 * DAY_MS;
    const at = clock;
    return { ...s.ctx, now: () => new Date(at) };
  };

  /** Fails every delivery of the checkout's notifications until the outbox gives them up. */
  async function giveUp(checkoutId: string) {
    s.answer = 503;
    for (let i = 0; i <= RETRY_DELAYS_MS.length; i++) await deliverDueNotifications(later());
    const rows = await s.pending(checkoutId);
    for (const row of rows) expect(row).toMatchObject({ deliveredAt: null, attempts: RETRY_DELAYS_MS.length + 1 });
    expect(rows[0]!.lastError).toMatch(/gave up/);
    return rows;
  }

  it("puts it back into delivery: the outbox sends it again, the same notification, and it is delivered", async () => {
    const checkout = await s.queue(1);
    const [given] = await giveUp(checkout.id);
    // Given up, it stays parked whatever the clock says.
    expect(await deliverDueNotifications(later())).toBe(0);

    // The back office shows it given up, by the id it sends again with.
    const shown = async () => (await checkoutDetailForStaff(checkout.id, s.ctx))!.notifications;
    expect(await shown()).toEqual([expect.objectContaining({ id: given!.id, givenUp: true })]);

    expect(await resendNotification(checkout.id, given!.id, s.ctx)).toBe("queued");
    expect(await shown()).toEqual([expect.objectContaining({ id: given!.id, givenUp: false, deliveredAt: null })]);
    s.answer = 200;
    expect(await deliverDueNotifications(s.ctx)).toBe(1);
    const sent = s.received.filter((r) => r.deliveryId === given!.id);
    expect(sent.length).toBe(RETRY_DELAYS_MS.length + 2);
    expect(sent.at(-1)!.body).toBe(given!.payload);
    const [row] = await s.pending(checkout.id);
    expect(row!.deliveredAt).not.toBeNull();
    // Sent again after it was delivered: nothing to do, and it is not sent a third time.
    expect(await resendNotification(checkout.id, given!.id, s.ctx)).toBe("delivered");
    expect(await deliverDueNotifications(later())).toBe(0);
  });

  it("when the merchant still fails, it is retried on the usual back-off, then given up again", async () => {
    const checkout = await s.queue(1);
    const [given] = await giveUp(checkout.id);
    expect(await resendNotification(checkout.id, given!.id, s.ctx)).toBe("queued");
    s.answer = 503;
    expect(await deliverDueNotifications(s.ctx)).toBe(0);
    const [retried] = await s.pending(checkout.id);
    expect(retried).toMatchObject({ attempts: 1, deliveredAt: null, lastStatus: 503 });
    expect(retried!.nextAttemptAt.getTime() - Date.now()).toBeLessThanOrEqual(RETRY_DELAYS_MS[0]! + 5_000);
    await giveUp(checkout.id);
  });

  it("only a given-up notification of that checkout is put back: one still being tried, or another checkout's, is left as it is", async () => {
    s.answer = 503;
    const checkout = await s.queue(1);
    expect(await deliverDueNotifications(s.ctx)).toBe(0);
    const [trying] = await s.pending(checkout.id);
    expect(trying!.attempts).toBe(1);
    expect(await resendNotification(checkout.id, trying!.id, s.ctx)).toBe("in_delivery");
    expect(await s.pending(checkout.id)).toEqual([trying]);

    const other = await s.queue(1);
    const [given] = await giveUp(other.id);
    expect(await resendNotification(checkout.id, given!.id, s.ctx)).toBe("not_found");
    expect(await resendNotification(other.id, "ntf_nope", s.ctx)).toBe("not_found");
    expect(await s.pending(other.id)).toEqual([given]);
  });

  it("warns staff that a given-up notification is older than one the merchant already has", async () => {
    const checkout = await s.queue(0);
    const notify = (event: "checkout.payment_failed" | "checkout.paid") => s.notify(checkout, event);
    await notify("checkout.payment_failed");
    const [failed] = await giveUp(checkout.id);
    const shown = async () => (await checkoutDetailForStaff(checkout.id, s.ctx))!.notifications;
    expect(await shown()).toEqual([expect.objectContaining({ id: failed!.id, laterDelivered: null })]);
    // The payer pays after all, and the merchant gets that one.
    await notify("checkout.paid");
    s.answer = 200;
    while ((await deliverDueNotifications(later())) > 0);
    expect(await shown()).toEqual([
      expect.objectContaining({ id: failed!.id, givenUp: true, laterDelivered: "checkout.paid" }),
      expect.objectContaining({ event: "checkout.paid", laterDelivered: null }),
    ]);
  });

  it("sent again, it still goes before the later notifications of its checkout that wait", async () => {
    const checkout = await s.queue(0);
    const notify = (event: "checkout.payment_failed" | "checkout.paid") => s.notify(checkout, event);
    await notify("checkout.payment_failed");
    const [failed] = await giveUp(checkout.id);
    // A later one, still being retried when staff send the first again.
    await notify("checkout.paid");
    expect(await deliverDueNotifications(s.ctx)).toBe(0);
    expect(await resendNotification(checkout.id, failed!.id, s.ctx)).toBe("queued");

    s.answer = 200;
    const before = s.received.length;
    const step = later();
    while ((await deliverDueNotifications(step)) > 0);
    expect(s.received.slice(before).map((r) => r.event)).toEqual(["checkout.payment_failed", "checkout.paid"]);
  });

  it("two staff (or two instances) sending it again at once put it back once", async () => {
    const checkout = await s.queue(1);
    const [given] = await giveUp(checkout.id);
    const other = await s.sibling();
    try {
      const outcomes = await Promise.all([
        resendNotification(checkout.id, given!.id, s.ctx),
        resendNotification(checkout.id, given!.id, other.ctx),
      ]);
      expect(outcomes.sort()).toEqual(["in_delivery", "queued"]);
    } finally {
      await other.close();
    }
    const [row] = await s.pending(checkout.id);
    expect(row).toMatchObject({ attempts: 0, deliveredAt: null, lockedUntil: null });
  });
});
