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
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { runChecks, type Check } from "./checks";
import { startProxy, type Upstream } from "./proxy";
import { startReceiver } from "./receiver";
import { createRng } from "./rng";
import {
  allChildren,
  appEnvFor,
  createDatabase,
  endpointsOf,
  killGroup,
  providerPaymentsOf,
  root,
  settle as settleRig,
  sleep,
  startInstances,
  startSandbox,
  stopAll,
  tailOf,
  writeChecksReport,
} from "./rig";
import { SANDBOX_CONTROL } from "../bench-app";
import { runCheckout, runMany, scenarioFor, type CheckoutRun } from "./workload";

const adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const seed = Number(process.env.CHAOS_SEED || Date.now() % 1_000_000);
const total = Number(process.env.CHAOS_CHECKOUTS || 220);
const PORTS = { proxy: 3600, sandbox: 3601, receiver: 3602, instances: [3611, 3612, 3613] };
const NOTIFY_SECRET = "chaos-notify-secret";
const MERCHANT_KEY = "chaos-merchant-key";

const t0 = Date.now();
const log = (msg: string) => console.log(`[chaos ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${msg}`);

let dropDatabase: (() => Promise<void>) | undefined;

async function cleanup() {
  stopAll();
  await dropDatabase?.().catch(() => {});
}
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
process.on("SIGTERM", () => void cleanup().then(() => process.exit(143)));

/** .ci-out/chaos.json, which scripts/summarize-tests.mjs counts in the closing line. */
function writeReport(checks: Check[]) {
  writeChecksReport("chaos", checks, { seed, seconds: Math.round((Date.now() - t0) / 1000) });
}

async function main() {
  if (!adminUrl) throw new Error("chaos needs Postgres: set TEST_DATABASE_URL or DATABASE_URL");
  if (!existsSync(path.join(root, ".next/BUILD_ID"))) throw new Error("no production build: run `npm run build` first");
  log(`seed ${seed}, ${total} checkouts`);
  const rng = createRng(seed);

  // A database of its own on the server, dropped at the end.
  const database = await createDatabase(adminUrl, "chaos");
  const dbUrl = database.url;
  dropDatabase = database.drop;

  const sandboxUrl = await startSandbox(PORTS.sandbox);
  const appEnv = appEnvFor({
    databaseUrl: dbUrl,
    appUrl: `http://localhost:${PORTS.proxy}`,
    sandboxUrl,
    merchantKey: MERCHANT_KEY,
    notifySecret: NOTIFY_SECRET,
  });

  const upstreams: Upstream[] = PORTS.instances.map((port) => ({ port, generation: 0, alive: false }));
  const { processes, start: startInstance } = await startInstances(upstreams, appEnv);
  log(`3 instances up on ${PORTS.instances.join(", ")}`);

  const { log: proxyLog } = await startProxy(PORTS.proxy, upstreams, createRng(seed + 1));
  const receiver = await startReceiver(PORTS.receiver, NOTIFY_SECRET, createRng(seed + 2));
  const e = endpointsOf(PORTS, upstreams, sandboxUrl, MERCHANT_KEY);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();

  const settle = (label: string) => settleRig(db, sandboxUrl, label, log);

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
    for (const [port, child] of processes) console.log(`\nlast lines of app:${port}:\n${tailOf(child).join("\n")}`);
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
    for (const c of allChildren()) console.error(tailOf(c, 10).join("\n"));
    await cleanup();
    process.exit(1);
  });
