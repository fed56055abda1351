/**
 * `npm run chaos`: the money path as it will be deployed, under the troubles of production
 * (issue 15, docs/chaos.md). Three `next start` instances of the production build on one Postgres,
 * behind a round-robin proxy that is the public APP_URL, in real-provider mode against the sandbox
 * server over HTTP; a merchant receiver that is sometimes slow and sometimes fails. A calm phase
 * (webhooks dropped, duplicated and reordered, no kills), then a storm (two kill -9 with restarts
 * and a provider outage), each settled, then the checks in checks.ts. Prints the figures, writes
 * .ci-out/chaos.json for the CI summary, exits 1 when a check fails.
 *
 * Needs Postgres (TEST_DATABASE_URL or DATABASE_URL, a server where it may create a database) and
 * the production build (`npm run build`). CHAOS_SEED replays a run; CHAOS_CHECKOUTS sizes it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { runChecks, type Check, type ProviderPayment } from "./checks";
import { startProxy, type Upstream } from "./proxy";
import { startReceiver } from "./receiver";
import { createRng } from "./rng";
import { SANDBOX_CONTROL } from "../bench-app";
import { runCheckout, runMany, scenarioFor, type CheckoutRun, type Endpoints } from "./workload";

const root = path.resolve(import.meta.dirname, "../..");
const adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const seed = Number(process.env.CHAOS_SEED || Date.now() % 1_000_000);
const total = Number(process.env.CHAOS_CHECKOUTS || 220);
const PORTS = { proxy: 3600, sandbox: 3601, receiver: 3602, instances: [3611, 3612, 3613] };
const NOTIFY_SECRET = "chaos-notify-secret";
const MERCHANT_KEY = "chaos-merchant-key";

const t0 = Date.now();
const log = (msg: string) => console.log(`[chaos ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const children: ChildProcess[] = [];
let dropDatabase: (() => Promise<void>) | undefined;

function spawnGroup(args: string[], env: NodeJS.ProcessEnv, name: string): ChildProcess {
  // Its own process group, so kill -9 takes the whole instance and cleanup leaves nothing behind.
  const child = spawn(process.execPath, args, { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const tail: string[] = [];
  const keep = (c: Buffer) =>
    tail.push(
      ...c
        .toString()
        .split("\n")
        .filter(Boolean)
        .map((l) => `${name}: ${l}`),
    );
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  (child as ChildProcess & { tail?: string[] }).tail = tail;
  children.push(child);
  return child;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function cleanup() {
  for (const c of children) killGroup(c, "SIGKILL");
  await dropDatabase?.().catch(() => {});
}
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
process.on("SIGTERM", () => void cleanup().then(() => process.exit(143)));

/** Every payment the provider made, with its refunds (the sandbox's control API). */
async function providerPaymentsOf(sandboxUrl: string): Promise<ProviderPayment[]> {
  return (
    (await (await fetch(`${sandboxUrl}/_sandbox/payments`, { headers: SANDBOX_CONTROL })).json()) as {
      data: ProviderPayment[];
    }
  ).data;
}

/** .ci-out/chaos.json, which scripts/summarize-tests.mjs counts in the closing line. */
function writeReport(checks: Check[]) {
  const out = path.join(root, ".ci-out");
  mkdirSync(out, { recursive: true });
  const failed = checks.filter((c) => !c.ok).length;
  writeFileSync(
    path.join(out, "chaos.json"),
    JSON.stringify(
      { seed, seconds: Math.round((Date.now() - t0) / 1000), passed: checks.length - failed, failed, tests: checks },
      null,
      2,
    ),
  );
}

async function waitHealthy(url: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return Date.now() - started;
    await sleep(100);
  }
  throw new Error(`${url} not healthy after ${timeoutMs} ms`);
}

async function main() {
  if (!adminUrl) throw new Error("chaos needs Postgres: set TEST_DATABASE_URL or DATABASE_URL");
  if (!existsSync(path.join(root, ".next/BUILD_ID"))) throw new Error("no production build: run `npm run build` first");
  log(`seed ${seed}, ${total} checkouts`);
  const rng = createRng(seed);

  // A database of its own on the server, dropped at the end.
  const name = `chaos_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };

  const sandboxUrl = `http://localhost:${PORTS.sandbox}`;
  spawnGroup(
    ["--import", "tsx", "lib/sandbox/server.ts"],
    { ...process.env, SANDBOX_PORT: String(PORTS.sandbox), SANDBOX_DATA_DIR: undefined },
    "sandbox",
  );
  await waitHealthy(`${sandboxUrl}/health`, 30_000);

  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: dbUrl,
    APP_URL: `http://localhost:${PORTS.proxy}`,
    PIS_BASE_URL: `${sandboxUrl}/platform`,
    PIS_TIMEOUT_MS: "5000",
    PIS_CLIENT_ID: "sandbox-client-id",
    PIS_CLIENT_SECRET: "sandbox-client-secret",
    PIS_WEBHOOK_SECRET: "sandbox-webhook-secret",
    MERCHANT_API_KEY: MERCHANT_KEY,
    MERCHANT_NOTIFY_SECRET: NOTIFY_SECRET,
    TOKEN_ENCRYPTION_KEYS: `chaos:${randomBytes(32).toString("base64")}`,
    CREDITOR_NAME: "Chaos Shop UAB",
    CREDITOR_IBAN: "LT601010012345678901",
    WORKER_INTERVAL_MS: "1000",
    // The real-provider mode against a sandbox on this machine: development secrets, plain http,
    // the merchant receiver on localhost.
    ALLOW_INSECURE_SETTINGS: "true",
    ALLOW_PRIVATE_URLS: "true",
    // All traffic comes from this one machine.
    RATE_LIMIT_PAYMENTS_PER_IP: "1000000",
  };
  delete appEnv.PGLITE_DIR;
  delete appEnv.TEST_DATABASE_URL;

  const upstreams: Upstream[] = PORTS.instances.map((port) => ({ port, generation: 0, alive: false }));
  const processes = new Map<number, ChildProcess>();
  const startInstance = async (u: Upstream) => {
    const started = Date.now();
    processes.set(
      u.port,
      spawnGroup(
        ["node_modules/next/dist/bin/next", "start", "-p", String(u.port)],
        { ...appEnv, PORT: String(u.port) },
        `app:${u.port}`,
      ),
    );
    await waitHealthy(`http://localhost:${u.port}/api/health`, 60_000);
    u.alive = true;
    return Date.now() - started;
  };
  await startInstance(upstreams[0]!); // the first migrates; the others start together below
  await Promise.all(upstreams.slice(1).map(startInstance));
  log(`3 instances up on ${PORTS.instances.join(", ")}`);

  const { log: proxyLog } = await startProxy(PORTS.proxy, upstreams, createRng(seed + 1));
  const receiver = await startReceiver(PORTS.receiver, NOTIFY_SECRET, createRng(seed + 2));
  const e: Endpoints = {
    proxy: `http://localhost:${PORTS.proxy}`,
    instances: () => upstreams.filter((u) => u.alive).map((u) => `http://localhost:${u.port}`),
    sandbox: sandboxUrl,
    notifyUrl: `http://127.0.0.1:${PORTS.receiver}/notify`,
    merchantKey: MERCHANT_KEY,
  };
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();

  /** Waits until every attempt the provider has settled is settled here and the outbox is empty. */
  const settle = async (label: string) => {
    const started = Date.now();
    while (Date.now() - started < 120_000) {
      const final = new Map(
        (await providerPaymentsOf(sandboxUrl))
          .filter((p) => p.statusGroup === "completed" || p.statusGroup === "failed")
          .map((p) => [p.id, p.statusGroup]),
      );
      const ours = (
        await db.query<{ provider_payment_id: string; status_group: string | null }>(
          "select provider_payment_id, status_group from payment_attempts where provider_payment_id is not null",
        )
      ).rows;
      const behind = ours.filter(
        (a) => final.has(a.provider_payment_id) && a.status_group !== final.get(a.provider_payment_id),
      ).length;
      const { n } = (
        await db.query<{ n: number }>("select count(*)::int as n from notifications where delivered_at is null")
      ).rows[0]!;
      const refunds = (
        await db.query<{ n: number }>(
          "select count(*)::int as n from refunds where status_group is null or status_group not in ('completed', 'failed')",
        )
      ).rows[0]!.n;
      if (behind === 0 && n === 0) {
        log(
          `${label}: settled in ${((Date.now() - started) / 1000).toFixed(1)} s (${refunds} refunds still at the provider)`,
        );
        return;
      }
      await sleep(1000);
    }
    log(`${label}: NOT settled after 120 s`);
  };

  // Phase 1, calm: the network misbehaves, nothing dies.
  const calmCount = Math.floor(total * 0.45);
  log(`phase 1 (calm): ${calmCount} checkouts`);
  const phase1 = await runMany(calmCount, 16, (n) => runCheckout(e, rng, 1, n, scenarioFor(rng)));
  await settle("phase 1");
  const calmUntil = Date.now();

  // Phase 2, storm: two kill -9 with restarts, and the provider down for 5 s.
  const stormCount = total - calmCount;
  log(`phase 2 (storm): ${stormCount} checkouts, 2 kill -9, a 5 s provider outage`);
  const restartsMs: number[] = [];
  const outages: { from: number; to: number }[] = [];
  const killAndRestart = async (u: Upstream) => {
    log(`kill -9 instance ${u.port}`);
    u.alive = false;
    u.generation++;
    killGroup(processes.get(u.port)!, "SIGKILL");
    await sleep(1000);
    const ms = await startInstance(u);
    restartsMs.push(ms);
    log(`instance ${u.port} healthy again ${(ms / 1000).toFixed(1)} s after its restart`);
  };
  const setFault = (mode: string) =>
    fetch(`${sandboxUrl}/_sandbox/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...SANDBOX_CONTROL },
      body: JSON.stringify({ mode }),
    });
  const chaos = (async () => {
    await sleep(3000);
    await killAndRestart(upstreams[0]!);
    await sleep(1000);
    log("provider outage: 5 s");
    outages.push({ from: Date.now(), to: Date.now() + 5000 });
    await setFault("error");
    await sleep(5000);
    await setFault("none");
    log("provider back");
    await sleep(2000);
    await killAndRestart(upstreams[1]!);
  })();
  const phase2 = await runMany(stormCount, 16, (n) => runCheckout(e, rng, 2, n, scenarioFor(rng)));
  await chaos;
  await settle("phase 2");

  const runs: CheckoutRun[] = [...phase1.runs, ...phase2.runs];
  const providerPayments = await providerPaymentsOf(sandboxUrl);
  const checks: Check[] = await runChecks({
    db,
    providerPayments,
    runs,
    receipts: receiver.receipts,
    proxy: proxyLog,
    calmUntil,
    outages,
    restartsMs,
    workloadErrors: [...phase1.errors, ...phase2.errors],
  });
  await db.end();

  const scenarios = runs.reduce<Record<string, number>>(
    (m, r) => ({ ...m, [r.scenario]: (m[r.scenario] ?? 0) + 1 }),
    {},
  );
  log(
    `checkouts: ${runs.length} (${Object.entries(scenarios)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}); provider payments: ${providerPayments.length}`,
  );
  log(
    `webhooks at the proxy: ${JSON.stringify(proxyLog.webhooks)}; notifications received: ${receiver.receipts.length}, bad signatures: ${receiver.badSignatures()}`,
  );
  console.log("\nchaos checks:");
  for (const c of checks) {
    console.log(`  ${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.value}`);
    for (const d of c.detail ?? []) console.log(`         ${d}`);
  }
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) {
    for (const [port, child] of processes)
      console.log(
        `\nlast lines of app:${port}:\n${((child as ChildProcess & { tail?: string[] }).tail ?? []).slice(-15).join("\n")}`,
      );
  }
  writeReport(checks);
  log(`${checks.length - failed.length} passed, ${failed.length} failed (seed ${seed}; .ci-out/chaos.json)`);
  return failed.length === 0 ? 0 : 1;
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (err) => {
    console.error(err);
    writeReport([{ name: "chaos run", ok: false, value: String(err) }]);
    for (const c of children)
      console.error(((c as ChildProcess & { tail?: string[] }).tail ?? []).slice(-10).join("\n"));
    await cleanup();
    process.exit(1);
  });
