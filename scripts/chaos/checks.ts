/**
 * What must hold after the storm, compared against the provider's own record (the sandbox's
 * control API) and the merchant's (the receiver), not against what the app says about itself.
 * Each check is one line of the report and one test in the CI count.
 */
import type pg from "pg";
import type { ProxyLog } from "./proxy";
import type { Receipt } from "./receiver";
import type { CheckoutRun } from "./workload";

export interface Check {
  name: string;
  ok: boolean;
  value: string;
  detail?: string[];
}

export interface ProviderPayment {
  id: string;
  statusGroup: string;
  refunds: { id: string }[];
}

/** What the checks query: a client, or a pool that outlives a database restart (the soak). */
export type Queryable = pg.Client | pg.Pool;

export interface Evidence {
  db: Queryable;
  providerPayments: ProviderPayment[];
  runs: CheckoutRun[];
  receipts: Receipt[];
  proxy: ProxyLog;
  /** Receipts before this time belong to the calm phase (no kills). */
  calmUntil: number;
  outages: { from: number; to: number }[];
  /** Instance restarts, ms from start to healthy; the soak kills none and leaves it out. */
  restartsMs?: number[];
  workloadErrors: string[];
  /**
   * Database restarts (the soak): from the stop to every instance ready again. A 503 that says
   * `"retry":true` is the documented answer then, and a notification acknowledged then may come
   * again (its delivery could not be written down).
   */
  databaseOutages?: { from: number; to: number }[];
  /** Checkouts that must have run to the end (default 200). */
  minCheckouts?: number;
}

/** How long after a database outage its effects are excused: a lease or a retry later. */
const DATABASE_GRACE_MS = 15_000;

const FINAL = new Set(["completed", "failed"]);
const p95 = (xs: number[]) =>
  xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;
const sample = (xs: string[]) => xs.slice(0, 10);

export async function runChecks(ev: Evidence): Promise<Check[]> {
  const checks: Check[] = [];
  const add = (name: string, bad: string[], value: string, ok = bad.length === 0) =>
    checks.push({ name, ok, value, ...(bad.length > 0 && { detail: sample(bad) }) });

  const attempts = (
    await ev.db.query<{
      id: string;
      checkout_id: string;
      provider_payment_id: string | null;
      status_group: string | null;
      duplicate_at: Date | null;
    }>("select id, checkout_id, provider_payment_id, status_group, duplicate_at from payment_attempts")
  ).rows;
  const checkouts = new Map(
    (await ev.db.query<{ id: string; status: string }>("select id, status from checkouts")).rows.map((c) => [
      c.id,
      c.status,
    ]),
  );
  const byPayment = new Map(attempts.filter((a) => a.provider_payment_id).map((a) => [a.provider_payment_id!, a]));
  const provider = new Map(ev.providerPayments.map((p) => [p.id, p]));

  // Every payment the provider made for our checkouts, found again in our records.
  const started = ev.runs.flatMap((r) => r.starts.map((s) => ({ ...s, checkoutId: r.id })));
  const unknown = started
    .filter((s) => !byPayment.has(s.paymentId))
    .map((s) => `${s.checkoutId}: provider payment ${s.paymentId} not bound to an attempt`);
  add(
    "every provider payment is bound to its attempt",
    unknown,
    `${started.length - unknown.length}/${started.length}`,
  );

  // Paid twice, and not flagged.
  const unflagged: string[] = [];
  for (const run of ev.runs) {
    const paidAtProvider = run.starts.filter((s) => provider.get(s.paymentId)?.statusGroup === "completed");
    const ours = paidAtProvider.map((s) => byPayment.get(s.paymentId)).filter((a) => a !== undefined);
    const notDuplicate = ours.filter((a) => a.status_group === "completed" && a.duplicate_at === null);
    if (paidAtProvider.length > 1 && notDuplicate.length !== 1)
      unflagged.push(
        `${run.id}: ${paidAtProvider.length} paid at the provider, ${notDuplicate.length} not flagged duplicate`,
      );
  }
  const paidTwice = ev.runs.filter(
    (r) => r.starts.filter((s) => provider.get(s.paymentId)?.statusGroup === "completed").length > 1,
  ).length;
  add(
    "checkouts paid twice at the provider and not flagged",
    unflagged,
    `${unflagged.length} of ${paidTwice} paid twice`,
  );

  // Final statuses: ours equal the provider's, attempt by attempt; a checkout paid at the provider is paid.
  const wrong: string[] = [];
  for (const s of started) {
    const p = provider.get(s.paymentId);
    const a = byPayment.get(s.paymentId);
    if (p && FINAL.has(p.statusGroup) && a && a.status_group !== p.statusGroup)
      wrong.push(`${s.checkoutId} ${a.id}: ours ${a.status_group}, provider ${p.statusGroup}`);
  }
  for (const run of ev.runs) {
    const paid = run.starts.some((s) => provider.get(s.paymentId)?.statusGroup === "completed");
    const status = checkouts.get(run.id);
    if (paid !== (status === "paid"))
      wrong.push(`${run.id}: checkout ${status}, provider ${paid ? "paid" : "not paid"}`);
  }
  add("final statuses different from the provider's", wrong, `${wrong.length} wrong of ${started.length} payments`);

  // Notifications: every one queued reached the merchant; the calm phase has no repeats after a 2xx.
  const rows = (
    await ev.db.query<{ id: string; event: string; checkout_id: string; created_at: Date; delivered_at: Date | null }>(
      "select id, event, checkout_id, created_at, delivered_at from notifications",
    )
  ).rows;
  const firstReceipt = new Map<string, number>();
  for (const r of ev.receipts) if (!firstReceipt.has(r.id)) firstReceipt.set(r.id, r.at);
  const lost = rows
    .filter((n) => !firstReceipt.has(n.id) || n.delivered_at === null)
    .map(
      (n) =>
        `${n.checkout_id} ${n.event} ${n.id}: ${n.delivered_at ? "marked delivered, never received" : "not delivered"}`,
    );
  for (const run of ev.runs) {
    if (checkouts.get(run.id) === "paid" && !rows.some((n) => n.checkout_id === run.id && n.event === "checkout.paid"))
      lost.push(`${run.id}: paid, no checkout.paid queued`);
  }
  add("notifications lost", lost, `${lost.length} of ${rows.length}`);

  const inDatabaseOutage = (at: number) =>
    (ev.databaseOutages ?? []).some((o) => at >= o.from - 1000 && at <= o.to + DATABASE_GRACE_MS);
  const acknowledged = new Map<string, number>();
  const repeats: string[] = [];
  let excused = 0;
  for (const r of ev.receipts.filter((x) => x.at < ev.calmUntil)) {
    const ackAt = acknowledged.get(r.id);
    if (ackAt !== undefined && inDatabaseOutage(ackAt)) excused++;
    else if (ackAt !== undefined) repeats.push(`${r.checkoutId} ${r.event} ${r.id} delivered again after a 2xx`);
    if (r.status < 300 && ackAt === undefined) acknowledged.set(r.id, r.at);
  }
  add(
    "duplicate notification ids without kills",
    repeats,
    `${repeats.length}${ev.databaseOutages ? ` (${excused} acknowledged while the database was down, sent again)` : ""}`,
  );

  const delays = rows
    .filter((n) => firstReceipt.has(n.id))
    .map((n) => firstReceipt.get(n.id)! - n.created_at.getTime());
  const p95Delay = p95(delays);
  add(
    "p95 delay from final status to notification < 10 s",
    [],
    `${(p95Delay / 1000).toFixed(2)} s over ${delays.length} (max ${(Math.max(0, ...delays) / 1000).toFixed(1)} s)`,
    p95Delay < 10_000,
  );

  // Refunds asked twice with one key: one refund at the provider.
  const twice: string[] = [];
  const refundRuns = ev.runs.filter((r) => r.refundKeys.length > 0);
  for (const run of refundRuns) {
    const paying = run.starts.find((s) => provider.get(s.paymentId)?.statusGroup === "completed");
    const count = paying ? (provider.get(paying.paymentId)?.refunds.length ?? 0) : 0;
    if (count !== 1) {
      const ours = (
        await ev.db.query<{ status_group: string | null; provider_refund_id: number | null; idempotency_key: string }>(
          "select status_group, provider_refund_id, idempotency_key from refunds where checkout_id = $1",
          [run.id],
        )
      ).rows;
      twice.push(
        `${run.id}: ${count} refunds at the provider (keys asked: ${run.refundKeys.length}; ours: ${JSON.stringify(ours)}; paying ${paying?.paymentId ?? "none"})`,
      );
    }
  }
  add(
    "refunds created twice (or not at all) for one refund asked twice",
    twice,
    `${twice.length} of ${refundRuns.length}`,
  );

  // 5xx from live instances. A provider outage is answered 502/503 provider_error by design, and
  // is retried by the client; outside an outage (and its calls' timeout) any 5xx is a failure.
  const inOutage = (at: number) => ev.outages.some((o) => at >= o.from && at <= o.to + 20_000);
  const outageAnswers = ev.proxy.answers.filter(
    (a) => a.status >= 500 && inOutage(a.at) && a.body?.includes("provider_error"),
  );
  // While the database restarts, a retryable 503 is the answer; a 500 or a broken connection is not.
  const databaseAnswers = ev.proxy.answers.filter(
    (a) => a.status === 503 && inDatabaseOutage(a.at) && /"retry":\s*true/.test(a.body ?? ""),
  );
  const fivexx = ev.proxy.answers.filter(
    (a) => a.status >= 500 && !outageAnswers.includes(a) && !databaseAnswers.includes(a),
  );
  add(
    "5xx answers from live instances",
    fivexx.map((a) => `${a.status} ${a.path}: ${a.body ?? ""}`),
    `${fivexx.length} of ${ev.proxy.answers.length} (${ev.proxy.cutOff} cut off by kills; ${outageAnswers.length} provider_error while the provider was down${ev.databaseOutages ? `; ${databaseAnswers.length} retryable 503 while the database restarted` : ""})`,
  );

  if (ev.restartsMs) {
    const slowest = Math.max(0, ...ev.restartsMs);
    add(
      "restart to healthy < 30 s",
      [],
      `${ev.restartsMs.length} restarts, slowest ${(slowest / 1000).toFixed(1)} s`,
      ev.restartsMs.length >= 2 && slowest < 30_000,
    );
  }

  const min = ev.minCheckouts ?? 200;
  add(`checkouts run to the end (at least ${min})`, [], `${ev.runs.length}`, ev.runs.length >= min);

  const findings = [...ev.workloadErrors, ...ev.runs.flatMap((r) => r.findings.map((f) => `${r.id}: ${f}`))];
  add("payer and merchant requests answered as documented", findings, `${findings.length} problems`);
  return checks;
}
