import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { CHECKOUT_STATUSES, PAYMENT_METHODS } from "../checkout/types";
import { inFlightReading, outboxReading, poolOf } from "./collect";

/**
 * Every label's values, each a short fixed list (or a route template, a provider operation, a
 * worker's name: words from the source, never from a request). Nothing here is an id, an amount
 * or an address, so the number of series stays what it is on the first day (ADR 33).
 */
export const LABEL_VALUES = {
  method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"],
  providerOutcome: ["ok", "http_4xx", "http_5xx", "http_other", "network", "timeout", "parse", "unsupported", "error"],
  origin: ["api", "payment_link"],
  endedStatus: CHECKOUT_STATUSES.filter((s) => s !== "open" && s !== "processing"),
  paymentMethod: [...PAYMENT_METHODS, "none"],
  deliveryResult: ["delivered", "failed", "given_up"],
  roundOutcome: ["ok", "failed"],
  outboxState: ["due", "retrying", "given_up"],
  poolState: ["in_use", "idle"],
  // A payment in flight by the provider's status group: unknown (the initiation not answered yet),
  // started (the payer is at the bank), pending (the bank took it, not settled).
  inFlightGroup: ["unknown", "started", "pending"],
} as const;

/**
 * checkout_ended_total's bank: a bank id the provider listed to this process (./record.ts), `none`
 * when no bank was chosen on our page (a card, an expiry, the provider's own bank choice), and
 * `other` for anything else. At most this many ids, however long the provider's list grows.
 */
export const MAX_BANK_LABELS = 500;

function definitions(registry: Registry) {
  const registers = [registry];
  return {
    requestSeconds: new Histogram({
      name: "checkout_http_request_duration_seconds",
      help: "Time from a request reaching a route handler to its answer, by route template and status code",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    providerSeconds: new Histogram({
      name: "checkout_provider_request_duration_seconds",
      help: "Each exchange with the payment provider (each try of a retried read), by operation and outcome",
      labelNames: ["operation", "outcome"] as const,
      // Up to the provider client's own timeout (PIS_TIMEOUT_MS, 15 s by default) and beyond.
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers,
    }),
    created: new Counter({
      name: "checkout_created_total",
      help: "Checkouts created, by the merchant's API or by payers on payment links",
      labelNames: ["origin"] as const,
      registers,
    }),
    ended: new Counter({
      name: "checkout_ended_total",
      help: "Checkouts moved to a final status, by status, and the method and bank of the payment that moved them (none: expiry, cancellation, no bank chosen on our page)",
      labelNames: ["status", "method", "bank"] as const,
      registers,
    }),
    deliveries: new Counter({
      name: "checkout_notification_deliveries_total",
      help: "Deliveries of notifications to merchants: delivered (2xx), failed (retried later), given_up (the last try failed)",
      labelNames: ["result"] as const,
      registers,
    }),
    roundSeconds: new Histogram({
      name: "checkout_worker_round_duration_seconds",
      help: "Rounds of this instance's background work, by worker and outcome",
      labelNames: ["worker", "outcome"] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    // Read from the database at scrape time (./collect.ts): the same on every instance.
    outboxNotifications: new Gauge({
      name: "checkout_outbox_notifications",
      help: "Notifications not delivered, in the database: due now, retrying later (backing off), given up",
      labelNames: ["state"] as const,
      registers,
      async collect() {
        const now = await outboxReading();
        this.reset();
        if (now) for (const state of LABEL_VALUES.outboxState) this.set({ state }, now[state]);
      },
    }),
    outboxOldestAge: new Gauge({
      name: "checkout_outbox_oldest_pending_age_seconds",
      help: "Age of the oldest notification still to be delivered (due or retrying; 0 when none), by the database's clock",
      registers,
      async collect() {
        const now = await outboxReading();
        this.reset();
        // A gauge without labels shows 0 after a reset, which would read as "nothing waits":
        // unread, it is left out, as the labelled ones are (the alert CheckoutDatabaseUnread).
        if (now) this.set(now.oldest_age);
        else this.remove();
      },
    }),
    paymentsInFlight: new Gauge({
      name: "checkout_payments_in_flight",
      help: "Payments started and not settled, in the database, by the provider's status group (unknown: the initiation not answered)",
      labelNames: ["group"] as const,
      registers,
      async collect() {
        const now = await inFlightReading();
        this.reset();
        if (now) for (const group of LABEL_VALUES.inFlightGroup) this.set({ group }, now[group].count);
      },
    }),
    paymentsInFlightLong: new Gauge({
      name: "checkout_payments_in_flight_over_30m",
      help: "Payments in flight started more than 30 minutes ago, in the database, by the provider's status group",
      labelNames: ["group"] as const,
      registers,
      async collect() {
        const now = await inFlightReading();
        this.reset();
        if (now) for (const group of LABEL_VALUES.inFlightGroup) this.set({ group }, now[group].long);
      },
    }),
    poolConnections: new Gauge({
      name: "checkout_db_pool_connections",
      help: "This instance's database connections, in use or idle",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const pool = poolOf();
        this.reset();
        if (!pool) return;
        this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
        this.set({ state: "idle" }, pool.idleCount);
      },
    }),
    poolWaiting: new Gauge({
      name: "checkout_db_pool_waiting",
      help: "Queries of this instance waiting for a free database connection",
      registers,
      collect() {
        const pool = poolOf();
        this.reset();
        if (pool) this.set(pool.waitingCount);
      },
    }),
    poolMax: new Gauge({
      name: "checkout_db_pool_max",
      help: "The most database connections this instance opens (DATABASE_POOL_SIZE)",
      registers,
      collect() {
        const max = poolOf()?.options.max;
        this.reset();
        if (max !== undefined) this.set(max);
      },
    }),
  };
}

export type Metrics = ReturnType<typeof definitions> & { registry: Registry };

// On globalThis: a dev reload or a second bundle holding this module would otherwise define every
// metric again, and each copy would count apart.
const holder = globalThis as { __checkoutMetrics?: Metrics };

/** This process's registry and metrics, made on first use. */
export function metrics(): Metrics {
  if (holder.__checkoutMetrics) return holder.__checkoutMetrics;
  const registry = new Registry();
  // Node's own: event-loop lag, heap, GC, CPU, open handles, under their usual names.
  collectDefaultMetrics({ register: registry });
  const m = { ...definitions(registry), registry };
  // Counters that exist from the start, so a rate over them is 0 rather than absent.
  for (const origin of LABEL_VALUES.origin) m.created.inc({ origin }, 0);
  for (const status of LABEL_VALUES.endedStatus)
    for (const method of LABEL_VALUES.paymentMethod) m.ended.inc({ status, method, bank: "none" }, 0);
  for (const result of LABEL_VALUES.deliveryResult) m.deliveries.inc({ result }, 0);
  holder.__checkoutMetrics = m;
  return m;
}

/** The exposition a scrape is answered with (the scrape-time gauges read now), and its content type. */
export async function exposition(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
