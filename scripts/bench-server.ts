/**
 * The server-side figures of `npm run bench` (each against its own `npm start` on spare ports):
 *
 * 3. Payment start overhead: the sandbox answers POST /pis/payment after a fixed delay (fault
 *    `slow`, 50 ms); POST /api/checkouts/{id}/payments is timed side by side with a direct POST of
 *    the same provider operation and body to the sandbox. p50 of each, the ratio and the difference.
 * 4. GET /api/banks throughput (autocannon, loopback) against a bare node:http server answering
 *    the same JSON, and against the same Next server answering a static file (its own floor):
 *    requests per second of each and the ratios.
 * 5. Webhook ingest: signed PAYMENT webhooks POSTed to /api/webhooks/pis, on PGlite and on a
 *    throwaway Postgres (scripts/pg-throwaway.sh): webhooks per second, first delivery (applied)
 *    and a repeat (idempotent).
 */
import http from "node:http";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { webhookSignature } from "../lib/pis/webhook";
import {
  SANDBOX_CREDENTIALS,
  WEBHOOK_SECRET,
  createCheckout,
  json,
  percentile,
  pool,
  request,
  startApp,
  startPostgres,
  type RunningApp,
} from "./bench-app";

const PROVIDER_DELAY_MS = 50;
const OVERHEAD_RUNS = 50;
const WEBHOOKS = 150;
// The issue sets no targets for these three; these are ours (README, "Benchmarks, security and resilience"):
/** Our server's work on a payment start may at most match the provider's own 50 ms (ratio ≤ 2). */
const PAYMENT_RATIO_TARGET = 2.0;
/**
 * Most of a route's cost is Next's own request pipeline (a CPU profile puts our handler near a
 * tenth), so the bank list is held against what the same Next server does for a static file:
 * at least a quarter of that. The ratio to a bare node:http server is printed too.
 */
const BANKS_VS_NEXT_TARGET = 0.25;
/** Webhooks applied per second on either database: far above any one shop's payment rate. */
const WEBHOOKS_PER_S_TARGET = 30;
const verdict = (ok: boolean) => (ok ? "OK" : "MISSED");

type Line = (text?: string) => void;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
// The server-side benches start many payments from one address; the per-address limit is not what is measured.
const LIMITS_OFF = { RATE_LIMIT_PAYMENTS_PER_IP: "1000000", RATE_LIMIT_PAYMENTS_PER_CHECKOUT: "1000000" };

async function paymentOverhead(app: RunningApp, line: Line) {
  const runId = Date.now().toString(36);
  const fault = await json(`${app.sandboxUrl}/_sandbox/faults`, {
    method: "POST",
    body: { mode: "slow", delayMs: PROVIDER_DELAY_MS, paths: ["/pis/payment"] },
  });
  if (fault.status !== 200) throw new Error(`setting the sandbox fault answered ${fault.status}`);
  try {
    const ids = await pool(
      Array.from({ length: OVERHEAD_RUNS + 5 }, (_, i) => i),
      4,
      (i) => createCheckout(app.url, `ovh-${runId}-${i}`),
    );
    const ours: number[] = [];
    const direct: number[] = [];
    for (const [i, id] of ids.entries()) {
      let t = performance.now();
      const a = await json(`${app.url}/api/checkouts/${id}/payments`, {
        method: "POST",
        body: { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `ovh-${runId}-${i}` },
      });
      const oursMs = performance.now() - t;
      if (a.status !== 200) throw new Error(`payment start answered ${a.status}: ${JSON.stringify(a.body)}`);
      // The same operation, as our server sends it (lib/pis/payments.ts), straight to the provider.
      t = performance.now();
      const b = await json(
        `${app.sandboxUrl}/platform/v0.3/pis/payment?bankId=SWEDBANK_LT_SAND&redirectPreferred=false`,
        {
          method: "POST",
          headers: {
            ...SANDBOX_CREDENTIALS,
            "Redirect-URL": `${app.url}/checkout/${id}/return`,
            "Webhook-URL": `${app.url}/api/webhooks/pis`,
          },
          body: {
            amount: "12.50",
            currencyCode: "EUR",
            description: "Load",
            bankPaymentMethod: {
              endToEndId: `ovh-direct-${runId}-${i}`,
              creditorName: "Demo Shop UAB",
              creditorAccount: { iban: "LT601010012345678901" },
            },
          },
        },
      );
      const directMs = performance.now() - t;
      if (b.status !== 200) throw new Error(`direct provider call answered ${b.status}: ${JSON.stringify(b.body)}`);
      if (i >= 5) {
        ours.push(oursMs);
        direct.push(directMs);
      }
    }
    const [o, d] = [median(ours), median(direct)];
    line(
      `payment start vs the same provider call (provider answers after ${PROVIDER_DELAY_MS} ms; ${ours.length} each, side by side):`,
    );
    line(
      `  POST /api/checkouts/{id}/payments p50 ${ms(o)}, p95 ${ms(
        percentile(
          [...ours].sort((x, y) => x - y),
          95,
        ),
      )}`,
    );
    line(
      `  direct POST /pis/payment          p50 ${ms(d)}, p95 ${ms(
        percentile(
          [...direct].sort((x, y) => x - y),
          95,
        ),
      )}`,
    );
    line(
      `  ratio ${(o / d).toFixed(2)}x (target ≤ ${PAYMENT_RATIO_TARGET}x) ${verdict(o / d <= PAYMENT_RATIO_TARGET)}; our overhead ${ms(o - d)} at the median`,
    );
  } finally {
    await json(`${app.sandboxUrl}/_sandbox/faults`, { method: "POST", body: { mode: "none" } });
  }
}

async function cannon(url: string): Promise<{ rps: number; p50: number; errors: number; non2xx: number }> {
  const r = await autocannon({ url, connections: 10, duration: 4, pipelining: 1 });
  return { rps: r.requests.average, p50: r.latency.p50, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

async function banksThroughput(app: RunningApp, line: Line) {
  const url = `${app.url}/api/banks?country=LT`;
  const sample = await request(url);
  if (sample.status !== 200) throw new Error(`/api/banks answered ${sample.status}`);
  const body = sample.body;
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, {
      "Content-Type": "application/json",
      "Content-Length": body.length,
      "Cache-Control": "public, max-age=300",
    });
    res.end(body);
  });
  await new Promise<void>((r) => bare.listen(0, "127.0.0.1", r));
  const port = (bare.address() as { port: number }).port;
  try {
    await cannon(url); // warm-up
    const ours = await cannon(url);
    const base = await cannon(`http://127.0.0.1:${port}/`);
    const floor = await cannon(`${app.url}/favicon.svg`);
    const ratio = ours.rps / base.rps;
    const vsNext = ours.rps / floor.rps;
    line(
      `GET /api/banks throughput (autocannon, 10 connections, 4 s each, ${(body.length / 1024).toFixed(1)} KiB JSON):`,
    );
    line(
      `  app ${ours.rps.toFixed(0)} req/s (p50 ${ours.p50} ms${ours.errors + ours.non2xx ? `, ${ours.errors} errors, ${ours.non2xx} non-2xx` : ""}); bare node:http ${base.rps.toFixed(0)} req/s (p50 ${base.p50} ms)`,
    );
    line(
      `  ratio ${ratio.toFixed(3)} of the bare server; Next itself serves a static file at ${floor.rps.toFixed(0)} req/s here`,
    );
    line(
      `  ratio ${vsNext.toFixed(2)} of Next's static-file floor (target ≥ ${BANKS_VS_NEXT_TARGET}) ${verdict(vsNext >= BANKS_VS_NEXT_TARGET)}`,
    );
  } finally {
    await new Promise((r) => bare.close(r));
  }
}

async function webhookIngest(app: RunningApp, label: string, line: Line) {
  const runId = Date.now().toString(36);
  const refs = Array.from({ length: WEBHOOKS }, (_, i) => `wh-${runId}-${i}`);
  const paymentIds = await pool(refs, 8, async (reference, i) => {
    const id = await createCheckout(app.url, reference);
    const start = await json(`${app.url}/api/checkouts/${id}/payments`, {
      method: "POST",
      body: { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `wh-${runId}-${i}` },
    });
    if (start.status !== 200) throw new Error(`payment start answered ${start.status}`);
    const found = await json<{ data: { id: string }[] }>(
      `${app.sandboxUrl}/_sandbox/payments?endToEndId=${encodeURIComponent(reference)}`,
    );
    return found.body.data[0]!.id;
  });
  const url = `${app.url}/api/webhooks/pis`;
  const send = async (paymentId: string) => {
    const body = JSON.stringify({ id: paymentId, bankStatus: "ACSC", statusGroup: "completed", type: "PAYMENT" });
    const timestamp = String(Date.now());
    const res = await request(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Kevin-Timestamp": timestamp,
        "X-Kevin-Signature": webhookSignature(WEBHOOK_SECRET, url, timestamp, body),
      },
      body,
    });
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.body.toString()}`);
  };
  const round = async () => {
    const t = performance.now();
    await pool(paymentIds, 8, send);
    return (WEBHOOKS / (performance.now() - t)) * 1000;
  };
  const first = await round();
  const repeat = await round();
  line(
    `  ${label.padEnd(9)} ${first.toFixed(0)} webhooks/s applied (each marks a checkout paid; target ≥ ${WEBHOOKS_PER_S_TARGET}) ${verdict(first >= WEBHOOKS_PER_S_TARGET)}, ` +
      `${repeat.toFixed(0)} webhooks/s repeated (idempotent); ${WEBHOOKS} each, 8 concurrent`,
  );
}

export async function benchServer(basePort: number, line: Line) {
  let app: RunningApp | undefined;
  try {
    line(`starting the app on http://localhost:${basePort} (sandbox on ${basePort + 1}, embedded PGlite)...`);
    app = await startApp({ port: basePort, dataDir: ".data/bench-server", env: LIMITS_OFF });
    await paymentOverhead(app, line);
    line();
    await banksThroughput(app, line);
    line();
    line("webhook ingest (signed, via POST /api/webhooks/pis):");
    await webhookIngest(app, "PGlite", line);
  } catch (err) {
    line(`server figures not measured: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await app?.stop();
  }

  const pg = startPostgres();
  if (!pg) {
    line("  Postgres  not measured: scripts/pg-throwaway.sh could not start a server");
    return;
  }
  try {
    app = await startApp({
      port: basePort + 10,
      dataDir: ".data/bench-server-pg",
      databaseUrl: pg.url,
      env: LIMITS_OFF,
    });
    await webhookIngest(app, "Postgres", line);
  } catch (err) {
    line(`  Postgres  not measured: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await app?.stop();
    pg.stop();
  }
}
