/**
 * `npm run load`: 200 payers at once through the sandbox, over the HTTP API only. Each payer's
 * merchant creates a checkout, the payer starts a payment, the sandbox is told the outcome (its
 * control API stands in for the bank: most approve, some reject, some cancel), and the script
 * waits until every checkout is final in the merchant's view (our database, fed by webhooks).
 * Then it counts provider payments per reference (exactly 1) and webhook deliveries per payment
 * (the last one answered 200), and prints p50/p95 of each step. Exits 1 on any duplicate, lost
 * webhook, wrong final status or error. Own app on LOAD_PORT (3300; sandbox 3301).
 * LOAD_VIA=proxy sends every request through the deployment's proxy (Caddy with
 * scripts/deploy/Caddyfile's upstream settings, on LOAD_PORT + 4), as payers reach production.
 */
import { performance } from "node:perf_hooks";
import {
  createCheckoutAnswered,
  json,
  percentile,
  pool,
  providerPayments,
  slowProvider,
  startApp,
  startBankPayment,
  startPostgres,
  startProxy,
  type RunningApp,
} from "./bench-app";

const PAYERS = Number(process.env.LOAD_PAYERS || 200);
const PORT = Number(process.env.LOAD_PORT || 3300);
const FINAL_TIMEOUT_MS = 120_000;
const WARMUP_PAYERS = Number(process.env.LOAD_WARMUP_PAYERS ?? 40);
const VIA_PROXY = process.env.LOAD_VIA === "proxy";
/** LOAD_PROVIDER_DELAY_MS: the provider answers every payment initiation this late (an incident). */
const PROVIDER_DELAY_MS = Number(process.env.LOAD_PROVIDER_DELAY_MS || 0);

type Outcome = "paid" | "failed";
interface Payer {
  reference: string;
  checkoutId: string;
  paymentId: string;
  expected: Outcome;
  createMs: number;
  /** Of createMs, the time in our route handler (the app's Server-Timing). */
  createHandlerMs: number;
  startMs: number;
  finalMs: number;
  final?: string;
}

const line = (s = "") => process.stdout.write(`${s}\n`);

function stats(name: string, values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  line(
    `  ${name.padEnd(28)} p50 ${percentile(sorted, 50).toFixed(0).padStart(6)} ms   p95 ${percentile(sorted, 95).toFixed(0).padStart(6)} ms   max ${(sorted.at(-1) ?? 0).toFixed(0).padStart(6)} ms`,
  );
}

async function payer(app: RunningApp, i: number, runId: string): Promise<Payer> {
  const reference = `load-${runId}-${i}`;
  const decision = i % 10 === 0 ? "RJCT" : i % 10 === 1 ? "CANC" : "ACSC";
  let t = performance.now();
  const created = await createCheckoutAnswered(app.url, reference, (1 + (i % 50) / 10).toFixed(2));
  const createMs = performance.now() - t;
  const checkoutId = created.id;
  const createHandlerMs = Number(/handler;dur=([\d.]+)/.exec(String(created.headers["server-timing"]))?.[1] ?? NaN);

  t = performance.now();
  const start = await startBankPayment(app.url, checkoutId, `load-${runId}-${i}-key`).catch((err: Error) => {
    throw new Error(`payer ${i}: ${err.message}`);
  });
  const startMs = performance.now() - t;
  if (!(JSON.parse(start.body.toString()) as { confirmLink?: string }).confirmLink)
    throw new Error(`payer ${i}: start answered without a confirmLink: ${start.body.toString()}`);

  const t0 = performance.now();
  const paymentId = (await providerPayments(app, reference))[0]?.id;
  if (!paymentId) throw new Error(`payer ${i}: the provider has no payment for ${reference}`);
  const forced = await json(`${app.sandboxUrl}/_sandbox/payments/${paymentId}/status`, {
    method: "POST",
    body: { bankStatus: decision },
  });
  if (forced.status !== 200) throw new Error(`payer ${i}: forcing ${decision} answered ${forced.status}`);

  // Final in the merchant's view: our database, moved by the webhook (no refresh from the provider).
  const deadline = Date.now() + FINAL_TIMEOUT_MS;
  let final: string | undefined;
  let delay = 1_500;
  while (Date.now() < deadline) {
    const view = await json<{ status: string }>(`${app.url}/api/checkouts/${checkoutId}`, {
      headers: { Authorization: "Bearer dev-merchant-key" },
    });
    if (["paid", "failed", "expired", "cancelled"].includes(view.body.status)) {
      final = view.body.status;
      break;
    }
    // The landing page's own schedule (1.5 s, growing by half up to 10 s): the probe must not
    // be what overloads the server (200 pollers at 1/s did, and delayed the webhooks it checks).
    await new Promise((r) => setTimeout(r, delay * (0.8 + Math.random() * 0.4)));
    delay = Math.min(delay * 1.5, 10_000);
  }
  return {
    reference,
    checkoutId,
    paymentId,
    expected: decision === "ACSC" ? "paid" : "failed",
    createMs,
    createHandlerMs,
    startMs,
    finalMs: performance.now() - t0,
    final,
  };
}

/** p95 of creating a checkout with 200 payers arriving together (issue 19). */
const CREATE_P95_GOAL_MS = { pglite: 2000, postgres: 1000 };

async function main() {
  // LOAD_DATABASE=pglite or postgres runs one of the two; by default both, one after the other.
  const kinds = (process.env.LOAD_DATABASE ? [process.env.LOAD_DATABASE] : ["pglite", "postgres"]) as (
    "pglite" | "postgres"
  )[];
  let failed = false;
  for (const kind of kinds) failed = (await loadOn(kind)) || failed;
  process.exit(failed ? 1 : 0);
}

/** The whole run on one database; true when anything failed. */
async function loadOn(kind: "pglite" | "postgres"): Promise<boolean> {
  const pg = kind === "postgres" ? startPostgres() : undefined;
  if (kind === "postgres" && !pg) throw new Error("scripts/pg-throwaway.sh could not start a Postgres server");
  line(`== load: ${PAYERS} concurrent payers ==`);
  line(
    `starting the app on http://localhost:${PORT} (sandbox on ${PORT + 1}, ${pg ? "Postgres" : "embedded PGlite"})...`,
  );
  const proxyUrl = `http://localhost:${PORT + 4}`;
  const direct = await startApp({
    port: PORT,
    dataDir: ".data/load",
    databaseUrl: pg?.url,
    env: {
      // 200 payers share one address here; the per-address limit is for the open internet (ADR 10).
      RATE_LIMIT_PAYMENTS_PER_IP: "1000000",
      // The handler's own time in Server-Timing (lib/http/route.ts), to tell it from the wait before it.
      BENCH_SERVER_TIMING: "1",
      // Behind the proxy, payers, the provider's webhooks and redirects all go through it.
      ...(VIA_PROXY ? { APP_URL: proxyUrl, TRUSTED_PROXY_HOPS: "1" } : {}),
    },
  });
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let failed = false;
  try {
    if (VIA_PROXY) {
      proxy = await startProxy(PORT + 4, PORT);
      if (!proxy) throw new Error("LOAD_VIA=proxy needs Caddy (apt-get install caddy)");
      line(`every request through the deployment's proxy (Caddy) on ${proxy.url}`);
    }
    const app: RunningApp = proxy ? { ...direct, url: proxy.url } : direct;
    if (PROVIDER_DELAY_MS > 0) {
      await slowProvider(app, PROVIDER_DELAY_MS);
      line(`the provider answers every payment initiation after ${PROVIDER_DELAY_MS} ms`);
    }
    const runId = Date.now().toString(36);
    // Payers arrive at a server that is already serving, not at one that has just booted: a few
    // go through first, a handful at a time, and are not counted (the cold figures are printed).
    const warm = await pool(
      Array.from({ length: WARMUP_PAYERS }, (_, i) => i),
      4,
      (i) => payer(app, PAYERS + i, `${runId}w`),
    );
    line(
      `warm-up: ${WARMUP_PAYERS} payers, 4 at a time, not counted below: create p50 ${percentile(
        warm.map((p) => p.createMs).sort((a, b) => a - b),
        50,
      ).toFixed(0)} ms, first ${warm[0]?.createMs.toFixed(0)} ms`,
    );
    const t = performance.now();
    const settled = await Promise.allSettled(Array.from({ length: PAYERS }, (_, i) => payer(app, i, runId)));
    const wallMs = performance.now() - t;
    const payers = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const errors = settled.flatMap((s) =>
      s.status === "rejected" ? [String(s.reason instanceof Error ? s.reason.message : s.reason)] : [],
    );

    // Duplicates: provider payments per reference.
    const counts = await pool(payers, 16, async (p) => (await providerPayments(app, p.reference)).length);
    const duplicates = counts.filter((n) => n !== 1).length;
    // Lost webhooks: every payment's latest delivery answered 200 (retries that are still due,
    // after a slow answer under load, are given up to a minute: that is the provider's design).
    let lost = payers.length;
    let retried = 0;
    let delivered = 0;
    let reasons = new Map<string, number>();
    const ours = new Set(payers.map((p) => p.paymentId));
    for (const deadline = Date.now() + 60_000; ;) {
      const deliveries = (
        await json<{
          data: { paymentId?: string; statusCode: number | null; error?: string; at: number; attempt: number }[];
        }>(`${app.sandboxUrl}/_sandbox/webhooks`)
      ).body.data;
      // Why first tries failed, so retries under load are explained rather than only counted.
      reasons = new Map();
      for (const d of deliveries) {
        if (!d.paymentId || !ours.has(d.paymentId) || d.statusCode === 200) continue;
        const why = d.statusCode !== null ? `HTTP ${d.statusCode}` : (d.error ?? "no answer");
        reasons.set(why, (reasons.get(why) ?? 0) + 1);
      }
      delivered = deliveries.filter((d) => d.paymentId && ours.has(d.paymentId)).length;
      retried = deliveries.filter((d) => d.paymentId && ours.has(d.paymentId) && d.attempt > 1).length;
      const latest = new Map<string, number | null>();
      for (const d of [...deliveries].sort((a, b) => a.at - b.at))
        if (d.paymentId) latest.set(d.paymentId, d.statusCode);
      lost = payers.filter((p) => latest.get(p.paymentId) !== 200).length;
      if (lost === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const notFinal = payers.filter((p) => !p.final).length;
    const wrong = payers.filter((p) => p.final && p.final !== p.expected).length;

    line(`finished in ${(wallMs / 1000).toFixed(1)} s: ${payers.length} payers completed, ${errors.length} errors`);
    stats(
      "create checkout",
      payers.map((p) => p.createMs),
    );
    // The rest of it is spent before the handler: waiting for the server to take the connection
    // (one new connection per turn of Node's event loop, ADR 19), and in Next.
    stats(
      "  of it in our handler",
      payers.map((p) => p.createHandlerMs),
    );
    const createP95 = percentile(
      payers.map((p) => p.createMs).sort((a, b) => a - b),
      95,
    );
    const createOk = createP95 < CREATE_P95_GOAL_MS[kind];
    line(
      `  create checkout p95 ${createP95.toFixed(0)} ms (goal < ${CREATE_P95_GOAL_MS[kind]} ms on ${pg ? "Postgres" : "PGlite"}) ${createOk ? "OK" : "MISSED"}`,
    );
    stats(
      "start payment",
      payers.map((p) => p.startMs),
    );
    stats(
      "bank decision -> final",
      payers.map((p) => p.finalMs),
    );
    line(`  duplicate provider payments: ${duplicates} (target 0)`);
    line(
      `  lost webhooks:               ${lost} (target 0); ${delivered} delivery attempts, ${retried} of them retries`,
    );
    if (reasons.size > 0)
      line(`  failed deliveries, by cause: ${[...reasons].map(([why, n]) => `${why} ×${n}`).join(", ")}`);
    line(`  not final in ${FINAL_TIMEOUT_MS / 1000} s:          ${notFinal} (target 0)`);
    line(`  wrong final status:          ${wrong} (target 0)`);
    for (const e of errors.slice(0, 5)) line(`  error: ${e}`);
    // A missed speed goal is reported above; only lost or wrong money fails the run.
    failed = errors.length > 0 || duplicates > 0 || lost > 0 || notFinal > 0 || wrong > 0;
    line(failed ? "LOAD FAILED" : "OK");
  } finally {
    await proxy?.stop();
    await direct.stop();
    pg?.stop();
  }
  return failed;
}

main().catch((err: unknown) => {
  line(`load failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
