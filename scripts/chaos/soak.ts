/**
 * `npm run soak -- --minutes 60 --rate 10`: does the app stay flat over an hour of traffic, and
 * does it ride out its database restarting (issue 55, items 7 and 8; ADR 39). Three `next start`
 * instances of the production build on a Postgres of its own, the sandbox provider over HTTP,
 * behind the chaos run's proxy; the chaos run's workload mix at a steady rate, without its faults.
 * Postgres is stopped fast and started again on its port `--restarts` times (2 by default) while
 * the traffic runs. Every 10 s it samples each instance (RSS, heap, event-loop lag), the requests'
 * latencies, the outbox's age and the database's size, and prints a line; at the end the chaos
 * run's checks (nothing lost or wrong), its own (memory, latency, restarts), what Debian's
 * Prometheus, scraping the instances throughout, answers to every dashboard query and whether an
 * alert fired (./prometheus.ts), a table and an SVG plot. Exits 1 when a check fails; writes
 * .ci-out/soak.json as the chaos run writes chaos.json.
 *
 * Needs the production build (`npm run build`) and Postgres's binaries (scripts/pg-throwaway.sh).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { z } from "zod";
import { runChecks, type Check } from "./checks";
import { startProxy, type Upstream } from "./proxy";
import { startReceiver } from "./receiver";
import {
  allChildren,
  appEnvFor,
  createDatabase,
  endpointsOf,
  providerPaymentsOf,
  root,
  settle,
  sleep,
  startInstances,
  startSandbox,
  stopAll,
  tailOf,
  trimTails,
  writeChecksReport,
} from "./rig";
import { startPrometheus } from "./prometheus";
import { createRng } from "./rng";
import {
  instanceSample,
  latencyOf,
  memoryBreakdown,
  plotSvg,
  quantile,
  soakVerdict,
  TABLE_HEADER,
  tableRow,
  warmupSeconds,
  type InstanceSample,
  type Sample,
} from "./soak-report";
import { runCheckout, scenarioFor, type CheckoutRun, type ObservedCall } from "./workload";
import { ERROR_TEXT } from "../../lib/i18n/error-text";

const Args = z
  .object({
    minutes: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(2),
    rate: z.coerce.number().positive().max(200).default(5),
    restarts: z.coerce.number().int().min(0).max(10).default(2),
    downSeconds: z.coerce.number().min(0).max(120).default(3),
    svg: z.string().min(1).default(".ci-out/soak.svg"),
  })
  .strict();

/** `--name value` and `--name=value`, kebab-case names read as camelCase. */
function argsOf(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]!);
    if (!m) throw new Error(`not an option: ${argv[i]}`);
    const name = m[1]!.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    out[name] = m[2] ?? argv[++i] ?? "";
  }
  return out;
}

const parsed = Args.safeParse(argsOf(process.argv.slice(2)));
if (!parsed.success) {
  console.error(
    `soak: ${parsed.error.issues.map((i) => `--${i.path.join(".") || "?"}: ${i.message}`).join("; ")}\n` +
      "usage: npm run soak -- [--minutes 2] [--rate 5] [--restarts 2] [--down-seconds 3] [--svg .ci-out/soak.svg]",
  );
  process.exit(2);
}
const opts = parsed.data;
const seed = Number(process.env.SOAK_SEED || Date.now() % 1_000_000);
const PORTS = { instances: [3500, 3501, 3502], sandbox: 3509, receiver: 3510, proxy: 3511, prometheus: 3512 };
const NOTIFY_SECRET = "soak-notify-secret";
const MERCHANT_KEY = "soak-merchant-key";
const SAMPLE_MS = 10_000;
/** A request slower than this while the database restarts counts as hung (the client waits 60 s). */
const HANG_MS = 10_000;
/**
 * How often each instance renders a payer's checkout page. The workload is the API's (the chaos
 * run's mix), and the page was first rendered by the probe at the first database restart: its
 * code, loaded mid-run, was +12 MB of RSS on every instance, counted as growth. A payer's page every
 * few seconds loads it in the warm-up, as any real traffic would, and keeps rendering it all run.
 */
const PAGE_VIEW_MS = 5_000;

const t0 = Date.now();
const log = (msg: string) => console.log(`[soak ${((Date.now() - t0) / 1000).toFixed(1).padStart(7)} s] ${msg}`);

const pgState = path.join(tmpdir(), `soak-pg-${process.pid}.env`);
const pgScript = path.join(root, "scripts/pg-throwaway.sh");
const pgCtl = (cmd: "start" | "stop" | "down" | "up") =>
  execFileSync("bash", [pgScript, cmd, pgState], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();

let stopped = false;
function cleanup() {
  if (stopped) return;
  stopped = true;
  stopAll();
  try {
    pgCtl("stop");
  } catch {
    // nothing started
  }
}
process.on("SIGINT", () => (cleanup(), process.exit(130)));
process.on("SIGTERM", () => (cleanup(), process.exit(143)));

/** Readiness of each instance as a load balancer polls it: what it answered, and when that changed. */
interface ReadyChange {
  port: number;
  at: number;
  state: "ready" | "not_ready" | "no_answer";
}

function pollReadiness(ports: number[], everyMs: number): { changes: ReadyChange[]; stop: () => void } {
  const changes: ReadyChange[] = [];
  const last = new Map<number, ReadyChange["state"]>();
  let on = true;
  for (const port of ports) {
    void (async () => {
      while (on) {
        const state = await fetch(`http://127.0.0.1:${port}/api/health/ready`, { signal: AbortSignal.timeout(3000) })
          .then(async (r) => {
            const body = (await r.json()) as { status?: string };
            return body.status === "not_ready"
              ? ("not_ready" as const)
              : r.ok
                ? ("ready" as const)
                : ("no_answer" as const);
          })
          .catch(() => "no_answer" as const);
        if (last.get(port) !== state) {
          last.set(port, state);
          changes.push({ port, at: Date.now(), state });
        }
        await sleep(everyMs);
      }
    })();
  }
  return { changes, stop: () => (on = false) };
}

/** Anonymous and file-backed resident pages of a process (Linux), in bytes; {} elsewhere. */
function residentSplit(pid: number | undefined): Pick<InstanceSample, "rssAnonBytes" | "rssFileBytes"> {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => {
      const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
      return m ? Number(m[1]) * 1024 : undefined;
    };
    return { rssAnonBytes: kb("RssAnon"), rssFileBytes: kb("RssFile") };
  } catch {
    return {};
  }
}

async function scrape(port: number, pid?: number): Promise<{ sample: InstanceSample; outboxAge?: number }> {
  try {
    const text = await (
      await fetch(`http://127.0.0.1:${port}/api/metrics`, { signal: AbortSignal.timeout(5000) })
    ).text();
    const age = /^checkout_outbox_oldest_pending_age_seconds\s+(\S+)/m.exec(text)?.[1];
    return {
      sample: { ...instanceSample(text), ...residentSplit(pid) },
      outboxAge: age === undefined ? undefined : Number(age),
    };
  } catch {
    return { sample: {} };
  }
}

interface Restart {
  n: number;
  /** The fast shutdown began; Postgres answered again; every instance was ready again. */
  from: number;
  upAt: number;
  to: number;
  /** Per instance: seen not_ready during it, and ms from Postgres up to ready again. */
  instances: { port: number; wentNotReady: boolean; readyAfterMs?: number }[];
  /** A payer's checkout page asked of each instance while Postgres was down. */
  pages: PageProbe[];
}

interface PageProbe {
  port: number;
  /** When it was asked. */
  at: number;
  status: number;
  /** It said, with a 503 and Retry-After, that the checkout is back in a moment (and it tries again by itself). */
  away: boolean;
  ms: number;
}

/** A checkout page asked of one instance, as a payer's browser would (a document, no JavaScript yet). */
async function probePage(port: number, checkoutId: string): Promise<PageProbe> {
  const started = Date.now();
  try {
    const res = await fetch(`http://localhost:${port}/checkout/${encodeURIComponent(checkoutId)}`, {
      headers: { accept: "text/html" },
      signal: AbortSignal.timeout(HANG_MS),
    });
    const body = await res.text();
    return {
      port,
      at: started,
      status: res.status,
      away: res.status === 503 && res.headers.has("retry-after") && body.includes(ERROR_TEXT.en.awayTitle),
      ms: Date.now() - started,
    };
  } catch {
    return { port, at: started, status: 0, away: false, ms: Date.now() - started };
  }
}

async function main(): Promise<number> {
  if (!existsSync(path.join(root, ".next/BUILD_ID"))) throw new Error("no production build: run `npm run build` first");
  const durationS = opts.minutes * 60;
  const warmup = warmupSeconds(durationS);
  // The machine may be shared: what else ran is part of the figures.
  const load = () => `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
  log(
    `${load()}; seed ${seed}; ${opts.minutes} min at ${opts.rate} checkouts/s; warm-up ${warmup} s; ${opts.restarts} database restarts of ${opts.downSeconds} s`,
  );

  const serverUrl = pgCtl("start");
  const database = await createDatabase(serverUrl, "soak");
  const sandboxUrl = await startSandbox(PORTS.sandbox);
  const appEnv = {
    ...appEnvFor({
      databaseUrl: database.url,
      appUrl: `http://localhost:${PORTS.proxy}`,
      sandboxUrl,
      merchantKey: MERCHANT_KEY,
      notifySecret: NOTIFY_SECRET,
    }),
    // Every payer comes from this machine: at 8 checkouts a second the abandons alone pass the
    // per-address limit of 60 a minute, and a payer whose Back was refused cannot pay again.
    RATE_LIMIT_ABANDONS_PER_IP: "1000000",
    RATE_LIMIT_RETURN_READS_PER_IP: "1000000",
  };
  const upstreams: Upstream[] = PORTS.instances.map((port) => ({ port, generation: 0, alive: false }));
  const { processes } = await startInstances(upstreams, appEnv);
  log(`3 instances up on ${PORTS.instances.join(", ")}; Postgres ${serverUrl.replace(/\/[^/]*$/, "")}`);
  // What an operator's dashboard and alerts show of the run (scripts/chaos/prometheus.ts).
  const prometheus = await startPrometheus(PORTS.prometheus, PORTS.instances);
  if (typeof prometheus === "string") log(prometheus);

  const { log: proxyLog } = await startProxy(PORTS.proxy, upstreams, createRng(seed + 1), { webhookFaults: false });
  const receiver = await startReceiver(PORTS.receiver, NOTIFY_SECRET, createRng(seed + 2), { faults: false });
  const calls: ObservedCall[] = [];
  const e = endpointsOf(PORTS, upstreams, sandboxUrl, MERCHANT_KEY, (c) => calls.push(c));
  // A pool, not a client: it outlives the restarts (a dropped connection is replaced).
  const db = new pg.Pool({ connectionString: database.url, max: 2 });
  db.on("error", () => {});
  const readiness = pollReadiness(PORTS.instances, 250);

  const rng = createRng(seed);
  const runs: CheckoutRun[] = [];
  const errors: string[] = [];
  let begun = 0;
  let inFlight = 0;
  const trafficFrom = Date.now();
  const since = () => (Date.now() - trafficFrom) / 1000;
  const trafficUntil = trafficFrom + durationS * 1000;

  // Open loop, as real payers arrive: the n-th checkout begins at n / rate s, however slow the app.
  const arrivals = (async () => {
    const running: Promise<void>[] = [];
    for (let n = 0; ; n++) {
      const at = trafficFrom + (n * 1000) / opts.rate;
      if (at >= trafficUntil) break;
      if (at > Date.now()) await sleep(at - Date.now());
      begun++;
      inFlight++;
      running.push(
        runCheckout(e, rng, 1, n, scenarioFor(rng))
          .then(
            (r) => void runs.push(r),
            (err: unknown) => void errors.push(`checkout ${n}: ${(err as Error).message}`),
          )
          .finally(() => inFlight--),
      );
    }
    await Promise.all(running);
  })();

  // The database restarts, spread over the traffic after the warm-up.
  const restarts: Restart[] = [];
  const restarting = (async () => {
    for (let n = 1; n <= opts.restarts; n++) {
      const at = trafficFrom + (warmup + ((durationS - warmup) * n) / (opts.restarts + 1)) * 1000;
      await sleep(at - Date.now());
      log(`restart ${n}: Postgres stopped (fast shutdown)`);
      const from = Date.now();
      pgCtl("down");
      // Once the instances' connections have dropped, a payer opens a checkout page on each.
      await sleep(Math.min(1000, (opts.downSeconds * 1000) / 3));
      const probed = runs.findLast((r) => r.id)?.id;
      const pages = probed ? await Promise.all(PORTS.instances.map((port) => probePage(port, probed))) : [];
      await sleep(from + opts.downSeconds * 1000 - Date.now());
      pgCtl("up");
      const upAt = Date.now();
      log(`restart ${n}: Postgres up after ${((upAt - from) / 1000).toFixed(1)} s down`);
      // Every instance seen not_ready since the stop, then ready again; 60 s at most.
      const seen = () =>
        PORTS.instances.map((port) => {
          const mine = readiness.changes.filter((c) => c.port === port && c.at >= from);
          const down = mine.find((c) => c.state === "not_ready");
          const back = mine.find((c) => c.state === "ready" && c.at >= upAt && (!down || c.at > down.at));
          return { port, wentNotReady: !!down, readyAfterMs: back ? back.at - upAt : undefined };
        });
      while (Date.now() - upAt < 60_000 && seen().some((i) => i.readyAfterMs === undefined)) await sleep(250);
      const instances = seen();
      const to = Math.max(upAt, ...instances.map((i) => upAt + (i.readyAfterMs ?? 60_000)));
      restarts.push({ n, from, upAt, to, instances, pages });
      log(
        `restart ${n}: ${instances.map((i) => `${i.port} ${i.wentNotReady ? "not_ready, " : "never not_ready, "}${i.readyAfterMs === undefined ? "NOT ready again" : `ready ${(i.readyAfterMs / 1000).toFixed(1)} s after`}`).join("; ")}`,
      );
    }
  })();

  // A payer's checkout page on each instance; those that met a restart are left to its own probe
  // (above) by the check, which reads them by time.
  const pageViews: PageProbe[] = [];
  const viewing = (async () => {
    while (Date.now() < trafficUntil) {
      await sleep(PAGE_VIEW_MS);
      const newest = runs.findLast((r) => r.id)?.id;
      if (!newest) continue;
      pageViews.push(...(await Promise.all(PORTS.instances.map((port) => probePage(port, newest)))));
    }
  })();

  // Every 10 s: each instance's scrape, the window's latencies, the outbox and the database.
  const samples: Sample[] = [];
  let seenCalls = 0;
  let lastBegun = 0;
  console.log(TABLE_HEADER);
  const sampling = (async () => {
    while (Date.now() < trafficUntil + 5_000) {
      await sleep(SAMPLE_MS - ((Date.now() - trafficFrom) % SAMPLE_MS));
      const window = calls.slice(seenCalls);
      seenCalls = calls.length;
      const ms = (kind: "create" | "pay") => window.filter((c) => kindOf(c) === kind).map((c) => c.ms);
      const scrapes = await Promise.all(PORTS.instances.map((port) => scrape(port, processes.get(port)?.pid)));
      const dbBytes = await db
        .query<{ size: string }>("select pg_database_size(current_database()) as size")
        .then((r) => Number(r.rows[0]!.size))
        .catch(() => undefined);
      const sample: Sample = {
        t: Math.round(since()),
        instances: scrapes.map((s) => s.sample),
        create: latencyOf(ms("create")),
        pay: latencyOf(ms("pay")),
        outboxAgeSeconds: scrapes.find((s) => s.outboxAge !== undefined)?.outboxAge,
        dbBytes,
        started: begun - lastBegun,
        inFlight,
      };
      lastBegun = begun;
      samples.push(sample);
      console.log(tableRow(sample));
      trimTails();
    }
  })();

  await Promise.all([arrivals, restarting, sampling, viewing]);
  log(`traffic over (${load()}): ${begun} checkouts begun, ${runs.length} ran to the end, ${errors.length} failed`);
  const settled = await settle(db, sandboxUrl, "after the traffic", log);
  readiness.stop();

  const databaseOutages = restarts.map((r) => ({ from: r.from, to: r.to }));
  const checks: Check[] = await runChecks({
    db,
    providerPayments: await providerPaymentsOf(sandboxUrl),
    runs,
    receipts: receiver.receipts,
    proxy: proxyLog,
    calmUntil: Infinity,
    outages: [],
    workloadErrors: errors,
    databaseOutages,
    minCheckouts: Math.floor(durationS * opts.rate * 0.95),
  });
  const afterWarmup = calls.filter((c) => kindOf(c) === "create" && c.startedAt >= trafficFrom + warmup * 1000);
  checks.push(
    ...soakVerdict(samples, { warmup, createMs: afterWarmup.map((c) => c.ms), ports: PORTS.instances }),
    ...restartChecks(restarts, calls, receiver.receipts, samples, trafficFrom),
    { name: "settled after the traffic (every payment final, the outbox empty)", ok: settled, value: String(settled) },
    pageViewCheck(pageViews, restarts),
    ...(typeof prometheus === "string"
      ? [{ name: "the dashboard and the alerts, read from Prometheus", ok: false, value: prometheus }]
      : await prometheus.checks({ from: trafficFrom, at: trafficUntil - 10_000 })),
  );
  await db.end();

  const svgPath = path.resolve(root, opts.svg);
  mkdirSync(path.dirname(svgPath), { recursive: true });
  writeFileSync(
    svgPath,
    plotSvg(samples, {
      warmup,
      restarts: restarts.map((r) => ({ from: (r.from - trafficFrom) / 1000, to: (r.to - trafficFrom) / 1000 })),
      ports: PORTS.instances,
      title: `soak: ${opts.minutes} min at ${opts.rate} checkouts/s, ${restarts.length} database restarts (seed ${seed})`,
    }),
  );

  const all = (kind: "create" | "pay") => calls.filter((c) => kindOf(c) === kind).map((c) => c.ms);
  log(
    `requests: create p50/p95 ${fmtMs(quantile(all("create"), 0.5))}/${fmtMs(quantile(all("create"), 0.95))}, payment start p50/p95 ${fmtMs(quantile(all("pay"), 0.5))}/${fmtMs(quantile(all("pay"), 0.95))} over the whole run; ${calls.length} requests`,
  );
  console.log("\nsoak checks:");
  for (const c of checks) {
    console.log(`  ${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.value}`);
    for (const d of c.detail ?? []) console.log(`         ${d}`);
  }
  const failed = checks.filter((c) => !c.ok);
  // What an instance said besides its one line per request: warnings and errors.
  if (failed.length > 0)
    for (const [port, child] of processes)
      console.log(
        `\nlast lines of app:${port} (request lines left out):\n${tailOf(child, 2000)
          .filter((l) => !l.includes('"msg":"request"'))
          .slice(-15)
          .join("\n")}`,
      );
  console.log(
    `\nmemory after the warm-up (MB, medians over its first and last five minutes, or quarters of a shorter run):`,
  );
  for (const line of memoryBreakdown(samples, warmup, PORTS.instances)) console.log(`  ${line}`);
  writeReport(checks, samples);
  log(`plot: ${svgPath}`);
  log(`${checks.length - failed.length} passed, ${failed.length} failed (seed ${seed}; .ci-out/soak.json)`);
  return failed.length === 0 ? 0 : 1;
}

const fmtMs = (v: number | undefined) => (v === undefined ? "-" : `${v.toFixed(0)} ms`);

/** The creates and the payment starts, the two requests whose latency the soak follows. */
function kindOf(c: ObservedCall): "create" | "pay" | "other" {
  if (c.method !== "POST") return "other";
  if (c.path === "/api/checkouts") return "create";
  if (/^\/api\/checkouts\/[^/]+\/payments$/.test(c.path)) return "pay";
  return "other";
}

/** Every checkout page a payer opened outside the restarts was rendered, within the hang limit. */
function pageViewCheck(all: PageProbe[], restarts: Restart[]): Check {
  const views = all.filter((v) => !restarts.some((r) => v.at <= r.to && v.at + v.ms >= r.from));
  const bad = views.filter((v) => v.status !== 200 || v.ms >= HANG_MS);
  const p95 = quantile(
    views.map((v) => v.ms),
    0.95,
  );
  return {
    name: `payers' checkout pages outside the restarts answered 200 within ${HANG_MS / 1000} s`,
    ok: views.length > 0 && bad.length === 0,
    value: `${views.length - bad.length} of ${views.length}, p95 ${p95 ?? "-"} ms`,
    ...(bad.length > 0 && { detail: bad.slice(0, 10).map((v) => `${v.port}: ${v.status} after ${v.ms} ms`) }),
  };
}

/** What must hold of each database restart (item 8): readiness, answers, and the work resuming. */
function restartChecks(
  restarts: Restart[],
  calls: ObservedCall[],
  receipts: { at: number }[],
  samples: Sample[],
  trafficFrom: number,
): Check[] {
  const checks: Check[] = [];
  checks.push({
    name: `database restarted under traffic (${opts.restarts} asked)`,
    ok: restarts.length === opts.restarts,
    value: `${restarts.length}: ${restarts.map((r) => `${((r.upAt - r.from) / 1000).toFixed(1)} s down`).join(", ")}`,
  });
  if (restarts.length === 0) return checks;

  const lagging = restarts.flatMap((r) =>
    r.instances
      .filter((i) => !i.wentNotReady || i.readyAfterMs === undefined || i.readyAfterMs >= 30_000)
      .map(
        (i) =>
          `restart ${r.n}, instance ${i.port}: ${i.wentNotReady ? "" : "never answered not_ready; "}${i.readyAfterMs === undefined ? "not ready again within 60 s" : `ready ${i.readyAfterMs} ms after Postgres was up`}`,
      ),
  );
  const slowest = Math.max(...restarts.flatMap((r) => r.instances.map((i) => i.readyAfterMs ?? Infinity)));
  checks.push({
    name: "every instance went not_ready and was ready again < 30 s after Postgres, by itself",
    ok: lagging.length === 0,
    value: `slowest ${(slowest / 1000).toFixed(1)} s after Postgres was up`,
    ...(lagging.length > 0 && { detail: lagging.slice(0, 10) }),
  });

  // The payer's page while the database is away: a 503 at once, with the page that says so and tries again.
  const pages = restarts.flatMap((r) => r.pages.map((p) => ({ ...p, n: r.n })));
  checks.push({
    name: "a checkout page while the database is down answers 503 with Retry-After: back in a moment",
    ok: pages.length > 0 && pages.every((p) => p.away && p.ms < HANG_MS),
    value: pages.map((p) => `restart ${p.n} ${p.port}: ${p.status}${p.away ? " away" : ""} ${p.ms} ms`).join(", "),
  });

  // Requests begun or ended in a window: each answered, in time, and retryably when refused.
  const inWindow = calls.filter((c) =>
    restarts.some((r) => c.startedAt <= r.to && c.startedAt + c.ms >= r.from - 1000),
  );
  const bad = inWindow.filter(
    (c) =>
      c.status === 0 ||
      c.ms >= HANG_MS ||
      (c.status >= 500 && !(c.status === 503 && c.retry === true) && c.code !== "provider_error"),
  );
  const byAnswer = inWindow.reduce<Record<string, number>>((m, c) => {
    const k = c.status >= 400 ? `${c.status} ${c.code ?? ""}`.trim() : `${c.status}`;
    return { ...m, [k]: (m[k] ?? 0) + 1 };
  }, {});
  checks.push({
    name: `requests during the restarts answered within ${HANG_MS / 1000} s, a refusal as a retryable 503`,
    ok: bad.length === 0,
    value: `${inWindow.length} requests (${Object.entries(byAnswer)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")}), slowest ${Math.max(0, ...inWindow.map((c) => c.ms)).toFixed(0)} ms`,
    ...(bad.length > 0 && {
      detail: bad
        .slice(0, 10)
        .map((c) => `${c.method} ${c.path}: ${c.status} ${c.code ?? ""} after ${c.ms.toFixed(0)} ms`),
    }),
  });

  // The outbox and the worker go on by themselves: notifications arrive and worker rounds end well
  // on every instance after the last restart.
  const last = restarts[restarts.length - 1]!;
  const delivered = receipts.filter((r) => r.at > last.to).length;
  const roundsAt = (s: Sample | undefined) => s?.instances.map((i) => i.okRounds);
  const before = roundsAt(samples.filter((s) => trafficFrom + s.t * 1000 <= last.from).at(-1));
  const after = roundsAt(samples.at(-1));
  const stalled = PORTS.instances.filter(
    (_, i) => before?.[i] === undefined || after?.[i] === undefined || after[i]! <= before[i]!,
  );
  checks.push({
    name: "the outbox and the worker resumed after the last restart",
    ok: delivered > 0 && stalled.length === 0,
    value: `${delivered} notifications delivered after it; worker rounds ended well since: ${PORTS.instances
      .map((p, i) => `${p} +${(after?.[i] ?? 0) - (before?.[i] ?? 0)}`)
      .join(", ")}`,
  });
  return checks;
}

function writeReport(checks: Check[], samples: Sample[]) {
  writeChecksReport("soak", checks, {
    seed,
    seconds: Math.round((Date.now() - t0) / 1000),
    minutes: opts.minutes,
    rate: opts.rate,
    samples,
  });
}

main()
  .then((code) => {
    cleanup();
    process.exit(code);
  })
  .catch((err) => {
    console.error(err);
    for (const c of allChildren()) console.error(tailOf(c, 10).join("\n"));
    cleanup();
    process.exit(1);
  });
