/**
 * The rig the chaos run (run.ts) and the soak (soak.ts) share: the sandbox provider server, `next
 * start` instances of the production build in real-provider mode against it, each in a process
 * group of its own, and the wait until the app has caught up with the provider. Whatever it starts
 * is killed by `stopAll()`.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { SANDBOX_CONTROL } from "../bench-app";
import type { ProviderPayment, Queryable } from "./checks";
import { killGroup, spawnGroup as spawnInGroup, waitHealthy, type Spawned } from "./processes";
import type { Upstream } from "./proxy";
import type { Endpoints } from "./workload";

export { killGroup, waitHealthy };

export const root = path.resolve(import.meta.dirname, "../..");
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const children: Spawned[] = [];

/** A child in its own process group (./processes.ts), remembered so that stopAll leaves nothing. */
export function spawnGroup(
  args: string[],
  env: NodeJS.ProcessEnv,
  name: string,
  o?: Parameters<typeof spawnInGroup>[3],
): Spawned {
  const child = spawnInGroup(args, env, name, o);
  children.push(child);
  return child;
}

/** The last lines a child printed (stdout and stderr, prefixed with its name). */
export const tailOf = (child: ChildProcess, lines = 15): string[] =>
  ((child as Partial<Spawned>).tail ?? []).slice(-lines);

/** Forgets all but the last lines each child printed: an hour of request lines is not kept. */
export function trimTails(keep = 2000) {
  for (const c of children) if (c.tail.length > 2 * keep) c.tail.splice(0, c.tail.length - keep);
}

export function stopAll() {
  for (const c of children) killGroup(c, "SIGKILL");
}

/** Every child started so far, for a failure report. */
export const allChildren = (): readonly ChildProcess[] => children;

/** A fresh database on a server where we may create one; `drop` removes it. */
export async function createDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    url: Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** The sandbox provider server on `port`, in memory; its base URL once it answers. */
export async function startSandbox(port: number): Promise<string> {
  spawnGroup(
    ["--import", "tsx", "lib/sandbox/server.ts"],
    { ...process.env, SANDBOX_PORT: String(port), SANDBOX_DATA_DIR: undefined },
    "sandbox",
  );
  const url = `http://localhost:${port}`;
  await waitHealthy(`${url}/health`, 30_000);
  return url;
}

/** Every payment the provider made, with its refunds (the sandbox's control API). */
export async function providerPaymentsOf(sandboxUrl: string): Promise<ProviderPayment[]> {
  return (
    (await (await fetch(`${sandboxUrl}/_sandbox/payments`, { headers: SANDBOX_CONTROL })).json()) as {
      data: ProviderPayment[];
    }
  ).data;
}

/**
 * The settings of an instance in the real-provider mode against the sandbox on this machine:
 * development secrets, plain http and the merchant receiver on localhost are let through, and the
 * worker runs every second.
 */
export function appEnvFor(o: {
  databaseUrl: string;
  appUrl: string;
  sandboxUrl: string;
  merchantKey: string;
  notifySecret: string;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: o.databaseUrl,
    APP_URL: o.appUrl,
    PIS_BASE_URL: `${o.sandboxUrl}/platform`,
    PIS_TIMEOUT_MS: "5000",
    PIS_CLIENT_ID: "sandbox-client-id",
    PIS_CLIENT_SECRET: "sandbox-client-secret",
    PIS_WEBHOOK_SECRET: "sandbox-webhook-secret",
    MERCHANT_API_KEY: o.merchantKey,
    MERCHANT_NOTIFY_SECRET: o.notifySecret,
    TOKEN_ENCRYPTION_KEYS: `chaos:${randomBytes(32).toString("base64")}`,
    CREDITOR_NAME: "Chaos Shop UAB",
    CREDITOR_IBAN: "LT601010012345678901",
    WORKER_INTERVAL_MS: "1000",
    ALLOW_INSECURE_SETTINGS: "true",
    ALLOW_PRIVATE_URLS: "true",
    // All traffic comes from this one machine.
    RATE_LIMIT_PAYMENTS_PER_IP: "1000000",
  };
  delete env.PGLITE_DIR;
  delete env.TEST_DATABASE_URL;
  return env;
}

/**
 * Starts `next start` on each upstream's port (the first alone, as it migrates the database), and
 * returns how to start one again after a kill; each start resolves with the ms it took to answer.
 */
export async function startInstances(
  upstreams: Upstream[],
  env: NodeJS.ProcessEnv,
): Promise<{ processes: Map<number, ChildProcess>; start: (u: Upstream) => Promise<number> }> {
  const processes = new Map<number, ChildProcess>();
  const start = async (u: Upstream) => {
    const started = Date.now();
    processes.set(
      u.port,
      spawnGroup(
        ["node_modules/next/dist/bin/next", "start", "-p", String(u.port)],
        { ...env, PORT: String(u.port) },
        `app:${u.port}`,
      ),
    );
    await waitHealthy(`http://localhost:${u.port}/api/health`, 60_000);
    u.alive = true;
    return Date.now() - started;
  };
  await start(upstreams[0]!);
  await Promise.all(upstreams.slice(1).map(start));
  return { processes, start };
}

/**
 * Waits until every payment the provider has settled is settled here too and the outbox is empty,
 * for at most `timeoutMs`; says how it went through `log`. True when settled.
 */
export async function settle(
  db: Queryable,
  sandboxUrl: string,
  label: string,
  log: (msg: string) => void,
  timeoutMs = 120_000,
): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
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
      return true;
    }
    await sleep(1000);
  }
  log(`${label}: NOT settled after ${timeoutMs / 1000} s`);
  return false;
}

/** Where the workload sends its requests: through the proxy, to the instances alive, the sandbox. */
export function endpointsOf(
  ports: { proxy: number; receiver: number },
  upstreams: readonly Upstream[],
  sandbox: string,
  merchantKey: string,
  observe?: Endpoints["observe"],
): Endpoints {
  return {
    proxy: `http://localhost:${ports.proxy}`,
    instances: () => upstreams.filter((u) => u.alive).map((u) => `http://localhost:${u.port}`),
    sandbox,
    notifyUrl: `http://127.0.0.1:${ports.receiver}/notify`,
    merchantKey,
    ...(observe ? { observe } : {}),
  };
}

/**
 * .ci-out/NAME.json, which scripts/summarize-tests.mjs counts in the closing line: one test per
 * check, with whatever else the run wants to keep beside them.
 */
export function writeChecksReport(
  name: string,
  checks: readonly { ok: boolean }[],
  extra: Record<string, unknown>,
): void {
  const out = path.join(root, ".ci-out");
  mkdirSync(out, { recursive: true });
  const failed = checks.filter((c) => !c.ok).length;
  writeFileSync(
    path.join(out, `${name}.json`),
    JSON.stringify({ ...extra, passed: checks.length - failed, failed, tests: checks }, null, 2),
  );
}
