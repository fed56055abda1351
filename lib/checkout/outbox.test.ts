import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { databaseAwayHint, markDatabaseBack } from "../db/away";
import type { Db } from "../db/client";
import { notifications } from "../db/schema";
import { testDbKinds } from "../db/testing";
import { closedPort } from "../test-helpers/closed-port";
import { deliverDueNotifications, startOutbox } from "./outbox";
import { notificationsContext, waitFor } from "./notifications-test-setup";

describe.each(testDbKinds())("the notification outbox on many instances (%s)", (kind) => {
  const s = notificationsContext(kind);

  it("two instances delivering at once send each notification once", async () => {
    s.answer = 200;
    // Twelve checkouts' notifications: one checkout's go out one after another, in order.
    const checkouts = await Promise.all(Array.from({ length: 12 }, () => s.queue(1)));
    const other = await s.sibling();
    try {
      const [a, b] = await Promise.all([deliverDueNotifications(s.ctx), deliverDueNotifications(other.ctx)]);
      expect(a + b).toBe(12);
    } finally {
      await other.close();
    }
    const ids = checkouts.flatMap((c) => s.idsReceivedFor(c.id));
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it("a slow merchant holds up only its own notification", async () => {
    s.answer = 200;
    const release = s.hold();
    const slow = await s.queue(1, s.heldUrl);
    const stop = startOutbox(s.ctx, { pollMs: 20, concurrency: 2, timeoutMs: 30_000 });
    try {
      await waitFor(async () => (await s.pending(slow.id))[0]!.lockedUntil !== null);
      // Queued after the slow one, and all delivered while it still hangs.
      const fast = await s.queue(5);
      await waitFor(async () => s.idsReceivedFor(fast.id).length === 5);
      expect(s.idsReceivedFor(slow.id)).toHaveLength(0);
      release(200);
      await waitFor(async () => (await s.pending(slow.id))[0]!.deliveredAt !== null);
    } finally {
      stop();
      release(200);
    }
  });

  it("drains a backlog as fast as the merchant answers, not one batch a poll", async () => {
    s.answer = 200;
    const backlog = await Promise.all(Array.from({ length: 7 }, () => s.queue(1)));
    // It claims on starting, then polls only once an hour: two lanes carry all seven by claiming
    // again as they free.
    const stop = startOutbox(s.ctx, { pollMs: 3_600_000, concurrency: 2, timeoutMs: 30_000 });
    try {
      await waitFor(async () => backlog.every((c) => s.idsReceivedFor(c.id).length === 1));
    } finally {
      await stop();
    }
  });

  it("a notification whose deliverer died is sent by another instance once the lease passes, and the late result of the first does not overwrite it", async () => {
    s.answer = 200;
    const release = s.hold();
    const checkout = await s.queue(1, s.heldUrl);
    // The first instance claims it and hangs (as if dying mid-request).
    const first = deliverDueNotifications(s.ctx, { timeoutMs: 60_000 });
    await waitFor(async () => (await s.pending(checkout.id))[0]!.lockedUntil !== null);
    expect(await deliverDueNotifications(s.ctx)).toBe(0); // leased: nobody else sends it meanwhile

    // Past the lease, another instance takes it over; the merchant answers it.
    const other = await s.sibling();
    try {
      const later = { ...other.ctx, now: () => new Date(Date.now() + 5 * 60_000) };
      await later.db.update(notifications).set({ url: s.notifyUrl }).where(eq(notifications.checkoutId, checkout.id));
      expect(await deliverDueNotifications(later)).toBe(1);
    } finally {
      await other.close();
    }
    // The first instance's request finally fails: its result no longer counts.
    release(500);
    expect(await first).toBe(0);
    const [row] = await s.pending(checkout.id);
    expect(row!.deliveredAt).not.toBeNull();
    expect(row!.attempts).toBe(1);
  });

  it("on shutdown, the outbox gives back the notification it is still sending, so another instance sends it at once", async () => {
    s.answer = 200;
    const release = s.hold();
    const checkout = await s.queue(1, s.heldUrl);
    const stop = startOutbox(s.ctx, { pollMs: 50, timeoutMs: 60_000 });
    await waitFor(async () => (await s.pending(checkout.id))[0]!.lockedUntil !== null);
    await stop(200); // the merchant is still holding the request when the grace ends
    expect((await s.pending(checkout.id))[0]!.lockedUntil).toBeNull();

    // Another instance, at the same moment (no clock moved past a lease), sends it.
    await s.ctx.db.update(notifications).set({ url: s.notifyUrl }).where(eq(notifications.checkoutId, checkout.id));
    expect(await deliverDueNotifications(s.ctx)).toBe(1);
    const before = s.received.length;
    release(500); // the first instance's request ends; its late result does not count
    await waitFor(async () => s.received.length > before);
    await new Promise((r) => setTimeout(r, 200)); // its (refused) write of the result
    const [row] = await s.pending(checkout.id);
    expect(row!.deliveredAt).not.toBeNull();
    expect(row!.attempts).toBe(1);
  });
});

describe("the notification outbox while the database is away", () => {
  const s = notificationsContext("pglite");

  it("keeps this instance's pages answering 503 at once, claiming every poll, with no page having to fail first", async () => {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new Pool({ connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres` });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const stop = startOutbox({ ...s.ctx, db: drizzle(pool) as unknown as Db }, { pollMs: 20 });
    try {
      await expect.poll(() => databaseAwayHint(), { timeout: 5_000 }).toBe(true);
      markDatabaseBack();
      await expect.poll(() => databaseAwayHint(), { timeout: 5_000 }).toBe(true);
    } finally {
      await stop();
      quiet.mockRestore();
      markDatabaseBack();
      await pool.end();
    }
  });
});
