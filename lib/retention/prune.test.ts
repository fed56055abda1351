import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "../db/client";
import { rowsOf } from "../db/raw";
import {
  auditEvents,
  checkouts,
  idempotencyKeys,
  notifications,
  paymentAttempts,
  rateLimits,
  refunds,
  staff,
  staffInvitations,
  staffPasskeyChallenges,
  staffSessions,
  statusEvents,
  webhookEvents,
} from "../db/schema";
import { openTestDb, testDbKinds } from "../db/testing";
import { logTo } from "../log/logger";
import { prune, startRetention } from "./prune";

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date("2026-06-01T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);
const minutesFromNow = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const RETENTION = { retentionDays: 90, now: NOW };

describe.each(testDbKinds())("retention (%s)", (kind) => {
  let handle: DbHandle & { url?: string };
  let staffId: string;
  let checkoutId: string;
  const db = () => handle.db;

  const count = async (query: string) =>
    Number(rowsOf<{ n: string | number }>(await db().execute(sql.raw(`select count(*) as n from ${query}`)))[0]!.n);

  async function newCheckout(createdAt: Date) {
    const id = `co_${randomUUID()}`;
    await db()
      .insert(checkouts)
      .values({
        id,
        amount: "30.00",
        currency: "EUR",
        description: "Order",
        reference: id,
        returnUrl: "https://shop.test/thanks",
        notifyUrl: "https://shop.test/notify",
        creditorName: "Demo Shop UAB",
        creditorIban: "LT601010012345678901",
        status: "paid",
        createdAt,
        updatedAt: createdAt,
        expiresAt: new Date(createdAt.getTime() + DAY),
      });
    return id;
  }

  /** `n` rows of each kind pruned at NOW, in one statement per table (fast on both databases). */
  async function manyDue(n: number) {
    await db().execute(sql`
      insert into rate_limits (key, window_started_at, hits, expires_at)
      select 'pay:ip:' || g, ${daysAgo(1)}, 1, ${daysAgo(1)} from generate_series(1, ${n}) g`);
    await db().execute(sql`
      insert into webhook_events (received_at, type, signature_valid, outcome, raw_body)
      select ${daysAgo(100)}, 'PAYMENT', true, 'applied', '{"id":"' || g || '"}' from generate_series(1, ${n}) g`);
    await db().execute(sql`
      insert into notifications (id, checkout_id, event, url, payload, attempts, delivered_at, created_at)
      select 'nt_' || g || '_' || ${randomUUID()}, ${checkoutId}, 'checkout.paid', 'https://shop.test/notify',
             '{"event":"checkout.paid"}', 1, ${daysAgo(100)}, ${daysAgo(100)}
      from generate_series(1, ${n}) g`);
  }

  beforeAll(async () => {
    handle = await openTestDb(kind);
    staffId = `st_${randomUUID()}`;
    await db()
      .insert(staff)
      .values({ id: staffId, email: `${staffId}@shop.test`, role: "admin" });
    checkoutId = await newCheckout(daysAgo(200));
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    for (const table of [
      "rate_limits",
      "staff_sessions",
      "staff_passkey_challenges",
      "staff_invitations",
      "notifications",
      "webhook_events",
    ])
      await db().execute(sql.raw(`delete from ${table}`));
  });

  it("prunes what ended or is older than RETENTION_DAYS, and keeps what is newer", async () => {
    await db()
      .insert(rateLimits)
      .values([
        { key: "pay:ip:ended", windowStartedAt: minutesFromNow(-2), hits: 3, expiresAt: minutesFromNow(-1) },
        { key: "pay:ip:counting", windowStartedAt: NOW, hits: 3, expiresAt: minutesFromNow(1) },
      ]);
    await db()
      .insert(staffSessions)
      .values([
        { tokenHash: "ran-out", staffId, expiresAt: minutesFromNow(-1) },
        { tokenHash: "signed-in", staffId, expiresAt: minutesFromNow(60) },
      ]);
    await db()
      .insert(staffPasskeyChallenges)
      .values([
        { challenge: "unanswered", purpose: "sign_in", expiresAt: minutesFromNow(-1) },
        { challenge: "waiting", purpose: "sign_in", expiresAt: minutesFromNow(1) },
      ]);
    await db()
      .insert(staffInvitations)
      .values([
        { tokenHash: "used-long-ago", staffId, expiresAt: daysAgo(99), usedAt: daysAgo(100) },
        { tokenHash: "expired-long-ago", staffId, expiresAt: daysAgo(91) },
        // Used long ago, though it would only have expired lately: used is when it ended.
        { tokenHash: "replaced-long-ago", staffId, expiresAt: daysAgo(80), usedAt: daysAgo(95) },
        { tokenHash: "used-lately", staffId, expiresAt: daysAgo(9), usedAt: daysAgo(10) },
        { tokenHash: "live", staffId, expiresAt: minutesFromNow(60) },
      ]);
    const notification = (id: string, over: Partial<typeof notifications.$inferInsert>) => ({
      id,
      checkoutId,
      event: "checkout.paid",
      url: "https://shop.test/notify",
      payload: `{"id":"${id}"}`,
      ...over,
    });
    await db()
      .insert(notifications)
      .values([
        notification("delivered-long-ago", { attempts: 1, createdAt: daysAgo(100), deliveredAt: daysAgo(100) }),
        notification("delivered-lately", { attempts: 1, createdAt: daysAgo(89), deliveredAt: daysAgo(89) }),
        // Staff may still send a given-up one again: it needs its body.
        notification("given-up-long-ago", { attempts: 99, createdAt: daysAgo(100), nextAttemptAt: daysAgo(98) }),
      ]);
    const webhook = (receivedAt: Date) => ({
      receivedAt,
      type: "PAYMENT",
      providerPaymentId: "pp-1",
      signatureValid: true,
      outcome: "applied",
      rawBody: '{"id":"pp-1"}',
    });
    await db()
      .insert(webhookEvents)
      .values([webhook(daysAgo(91)), webhook(daysAgo(89))]);

    expect(await prune(db(), RETENTION)).toEqual({
      rateLimitWindows: 1,
      staffSessions: 1,
      passkeyChallenges: 1,
      staffInvitations: 3,
      notificationPayloads: 1,
      webhookBodies: 1,
    });

    expect((await db().select().from(rateLimits)).map((r) => r.key)).toEqual(["pay:ip:counting"]);
    expect((await db().select().from(staffSessions)).map((r) => r.tokenHash)).toEqual(["signed-in"]);
    expect((await db().select().from(staffPasskeyChallenges)).map((r) => r.challenge)).toEqual(["waiting"]);
    expect((await db().select().from(staffInvitations)).map((r) => r.tokenHash).sort()).toEqual([
      "live",
      "used-lately",
    ]);
    // The delivery record stays, and the back office still lists it; only the body goes.
    const notes = await db().select().from(notifications).orderBy(notifications.id);
    expect(notes.map((n) => [n.id, n.payload, n.deliveredAt?.getTime() ?? null])).toEqual([
      ["delivered-lately", '{"id":"delivered-lately"}', daysAgo(89).getTime()],
      ["delivered-long-ago", "", daysAgo(100).getTime()],
      ["given-up-long-ago", '{"id":"given-up-long-ago"}', null],
    ]);
    const hooks = await db().select().from(webhookEvents).orderBy(webhookEvents.id);
    expect(hooks.map((w) => [w.type, w.outcome, w.rawBody])).toEqual([
      ["PAYMENT", "applied", ""],
      ["PAYMENT", "applied", '{"id":"pp-1"}'],
    ]);

    // Again: nothing more is due.
    expect(Object.values(await prune(db(), RETENTION))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("never touches the books or the audit trail, however old", async () => {
    const old = daysAgo(400);
    const id = await newCheckout(old);
    const attemptId = `pa_${randomUUID()}`;
    await db()
      .insert(paymentAttempts)
      .values({
        id: attemptId,
        checkoutId: id,
        attemptKey: "k1",
        method: "bank",
        bankId: "SEB_LT_SAND",
        providerPaymentId: `pp-${randomUUID()}`,
        statusGroup: "completed",
        completedAt: old,
        createdAt: old,
        updatedAt: old,
      });
    await db()
      .insert(statusEvents)
      .values([
        { checkoutId: id, fromStatus: "open", toStatus: "processing", source: "payer", createdAt: old },
        { checkoutId: id, attemptId, fromStatus: "processing", toStatus: "paid", source: "webhook", createdAt: old },
      ]);
    await db()
      .insert(refunds)
      .values({
        id: `rf_${randomUUID()}`,
        checkoutId: id,
        attemptId,
        providerRefundId: 7,
        amount: "10.00",
        currency: "EUR",
        statusGroup: "completed",
        createdBy: "merchant",
        idempotencyKey: "refund-1",
        requestHash: "h",
        createdAt: old,
        updatedAt: old,
      });
    // README: "Keys are kept as long as what they made", and a checkout is kept for good.
    await db()
      .insert(idempotencyKeys)
      .values({ key: `idem-${id}`, requestHash: "h", checkoutId: id, createdAt: old });
    await db().insert(auditEvents).values({
      occurredAt: old,
      actorKind: "staff",
      actorId: staffId,
      action: "refund.create",
      outcome: "succeeded",
      targetId: id,
    });
    const books = async () => ({
      checkouts: await db().select().from(checkouts).orderBy(checkouts.id),
      attempts: await db().select().from(paymentAttempts).orderBy(paymentAttempts.id),
      history: await db().select().from(statusEvents).orderBy(statusEvents.id),
      refunds: await db().select().from(refunds).orderBy(refunds.id),
      keys: await db().select().from(idempotencyKeys).orderBy(idempotencyKeys.key),
      audit: await db().select().from(auditEvents).orderBy(auditEvents.id),
    });
    const before = await books();
    expect(before.checkouts.length).toBeGreaterThanOrEqual(2);

    await manyDue(50);
    await prune(db(), { ...RETENTION, batchSize: 10 });

    expect(await books()).toEqual(before);
    // A day of retention, the least allowed, still keeps them.
    await prune(db(), { retentionDays: 1, now: NOW });
    expect(await books()).toEqual(before);
  });

  it("works through more rows than one batch; a round cut short goes on in the next", async () => {
    await manyDue(1_200);
    // One batch of each kind, as if the round had been stopped (or killed) after it.
    const first = await prune(db(), { ...RETENTION, batchSize: 500, maxBatches: 1 });
    expect([first.rateLimitWindows, first.webhookBodies, first.notificationPayloads]).toEqual([500, 500, 500]);
    expect(await count("rate_limits")).toBe(700);
    expect(await count("webhook_events where raw_body <> ''")).toBe(700);

    const second = await prune(db(), { ...RETENTION, batchSize: 500 });
    expect([second.rateLimitWindows, second.webhookBodies, second.notificationPayloads]).toEqual([700, 700, 700]);
    expect(await count("rate_limits")).toBe(0);
    expect(await count("webhook_events where raw_body <> ''")).toBe(0);
    expect(await count("notifications where payload <> ''")).toBe(0);
    // The records themselves stay.
    expect(await count("webhook_events")).toBe(1_200);
    expect(await count("notifications")).toBe(1_200);
  });

  it("two instances pruning at once finish without error and prune each row once", async () => {
    await manyDue(2_000);
    // A second instance: its own pool on Postgres; PGlite serves one instance, so the same one.
    const other: DbHandle | undefined = handle.url ? await openDb({ databaseUrl: handle.url }) : undefined;
    try {
      const opts = { ...RETENTION, batchSize: 100, maxBatches: 100 };
      const [a, b] = await Promise.all([prune(db(), opts), prune(other?.db ?? db(), opts)]);
      expect(a.rateLimitWindows + b.rateLimitWindows).toBe(2_000);
      expect(a.webhookBodies + b.webhookBodies).toBe(2_000);
      expect(a.notificationPayloads + b.notificationPayloads).toBe(2_000);
      expect(await count("rate_limits")).toBe(0);
      expect(await count("webhook_events where raw_body <> ''")).toBe(0);
      expect(await count("notifications where payload <> ''")).toBe(0);
    } finally {
      await other?.close();
    }
  });

  it.skipIf(kind === "pglite")(
    "a pruning instance killed mid-statement leaves the books whole, and the next round finishes",
    async () => {
      await manyDue(2_000);
      const books = async () => ({
        checkouts: await db().select().from(checkouts).orderBy(checkouts.id),
        history: await db().select().from(statusEvents).orderBy(statusEvents.id),
      });
      const before = await books();
      const url = new URL(handle.url!);
      url.searchParams.set("application_name", "doomed-pruner");
      const doomed = await openDb({ databaseUrl: url.toString() });
      const doomedWaiting = "pg_stat_activity where application_name = 'doomed-pruner' and wait_event_type = 'Lock'";
      // Held while the doomed instance's statement on notifications waits for it; then its
      // connection is cut from the server's side, as when its process is killed.
      await db().transaction(async (tx) => {
        await tx.execute(sql`lock table notifications in exclusive mode`);
        const outcome = prune(doomed.db, { ...RETENTION, batchSize: 50, maxBatches: 1_000, maxMs: 60_000 }).then(
          () => "finished",
          () => "killed",
        );
        await expect.poll(() => count(doomedWaiting), { timeout: 10_000 }).toBe(1);
        await db().execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'doomed-pruner'`,
        );
        expect(await outcome).toBe("killed");
      });
      await doomed.close().catch(() => undefined);
      // What it finished stays done; the statement it was killed in changed nothing.
      expect(await count("rate_limits")).toBe(0);
      expect(await count("notifications where payload <> ''")).toBe(2_000);
      expect(await count("webhook_events where raw_body <> ''")).toBe(2_000);

      const next = await prune(db(), RETENTION);
      expect([next.notificationPayloads, next.webhookBodies]).toEqual([2_000, 2_000]);
      expect(await count("notifications where payload <> ''")).toBe(0);
      expect(await books()).toEqual(before);
    },
  );

  it("the worker's round prunes and says what in one log line; stopping waits for it", async () => {
    await manyDue(10);
    const lines: Record<string, unknown>[] = [];
    logTo({ write: (line: string) => void lines.push(JSON.parse(line)) });
    const stop = startRetention(db(), 90, 20);
    await expect.poll(() => lines.filter((l) => l.msg === "retention: pruned").length, { timeout: 5_000 }).toBe(1);
    await stop();
    const [line] = lines.filter((l) => l.msg === "retention: pruned");
    expect(line).toMatchObject({
      level: "info",
      retentionDays: 90,
      pruned: { rateLimitWindows: 10, webhookBodies: 10 },
    });
    // Later rounds found nothing and said nothing.
    expect(await count("rate_limits")).toBe(0);
  });
});
