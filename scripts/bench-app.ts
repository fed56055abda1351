/**
 * Helpers shared by `npm run bench` and `npm run load`: start the whole app (`npm start`, the
 * sandbox beside it) on spare ports with its own database, talk HTTP to it, stop it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");
export const MERCHANT_KEY = "dev-merchant-key";
export const SANDBOX_CREDENTIALS = { "Client-Id": "sandbox-client-id", "Client-Secret": "sandbox-client-secret" };
export const WEBHOOK_SECRET = "sandbox-webhook-secret";

export interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(init.timeoutMs ?? 60_000, () => req.destroy(new Error(`timeout: ${url}`)));
    if (init.body) req.write(init.body);
    req.end();
  });
}

/** The header the sandbox's control API (/_sandbox/...) wants: its documented test secret. */
export const SANDBOX_CONTROL = { "X-Sandbox-Secret": process.env.SANDBOX_CONTROL_SECRET || "sandbox-control-secret" };

export async function json<T>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const res = await request(url, {
    method: init.method,
    headers: {
      "Content-Type": "application/json",
      ...(url.includes("/_sandbox/") ? SANDBOX_CONTROL : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = res.body.toString();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export function percentile(sorted: number[], p: number): number {
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[at] ?? 0;
}

export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

export interface RunningApp {
  url: string;
  sandboxUrl: string;
  child: ChildProcess;
  /** CPU time its Next server has used so far, in ms (serverCpuMs). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * CPU time, in ms, that the Next server in process group `group` has used so far. Per request it
 * is far steadier than requests per second on a shared machine, whose speed moves with its
 * neighbours: it says how much of a request's cost is the framework's and how much is ours.
 */
export function serverCpuMs(group: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // it ended meanwhile
    }
    // After the name: state, parent, process group, ...; user and system time are the 12th and
    // 13th, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === group && stat.includes("(next-server")) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/** `npm start` on `port` (sandbox on port + 1), with a fresh embedded database unless databaseUrl is given. */
export async function startApp(o: {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
}): Promise<RunningApp> {
  for (const p of [o.port, o.port + 1]) if (!(await portFree(p))) throw new Error(`port ${p} is in use`);
  const url = `http://localhost:${o.port}`;
  rmSync(path.join(root, o.dataDir), { recursive: true, force: true });
  const child = spawn("npm", ["start"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(o.port),
      SANDBOX_PORT: String(o.port + 1),
      EMBED_DEMO_PORT: String(o.port + 2),
      APP_URL: url,
      PGLITE_DIR: o.dataDir,
      PIS_BASE_URL: "",
      DATABASE_URL: o.databaseUrl ?? "",
      ...o.env,
    },
  });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const app: RunningApp = {
    url,
    sandboxUrl: `http://localhost:${o.port + 1}`,
    child,
    cpuMs: () => serverCpuMs(child.pid!),
    stop: () => stopProcessGroup(child),
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}\n${stderr.trim()}`);
    if (await healthy(url)) return app;
    if (Date.now() > deadline) {
      await app.stop();
      throw new Error(`the app did not become healthy in time\n${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Whether the app at `url` (directly or through the proxy) answers its liveness check. */
const healthy = (url: string) =>
  request(`${url}/api/health`, { timeoutMs: 2000 }).then(
    (r) => r.status === 200,
    () => false,
  );

/**
 * Makes the sandbox answer every payment initiation `delayMs` late (0: on time again), as a slow
 * provider does.
 */
export async function slowProvider(app: RunningApp, delayMs: number): Promise<void> {
  const body = delayMs > 0 ? { mode: "slow", delayMs, paths: ["/pis/payment"] } : { mode: "none" };
  const fault = await json(`${app.sandboxUrl}/_sandbox/faults`, { method: "POST", body });
  if (fault.status !== 200) throw new Error(`setting the sandbox fault answered ${fault.status}`);
}

/**
 * Stops `child`'s process group (npm and the servers it started) and waits until none of it is
 * left: a server still closing holds its port, and the next app started on it would not start.
 * Killed after 10 s; given up on 5 s after that.
 */
export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-pid, name);
      return true;
    } catch {
      return false; // none of the group is left
    }
  };
  if (!signal("SIGTERM")) return;
  const started = Date.now();
  let killed = false;
  while (signal(0) && Date.now() - started < 15_000) {
    if (!killed && Date.now() - started > 10_000) killed = signal("SIGKILL");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A merchant's POST /api/checkouts, as the benches and the load test send it. */
export const MERCHANT_HEADERS = { Authorization: `Bearer ${MERCHANT_KEY}`, "Content-Type": "application/json" };
export const checkoutBody = (app: string, reference: string, amount = "12.50") =>
  JSON.stringify({ amount, currency: "EUR", description: "Load", reference, returnUrl: `${app}/` });

/** Creates a checkout over the merchant API; returns its id. */
export async function createCheckout(app: string, reference: string, amount = "12.50"): Promise<string> {
  return (await createCheckoutAnswered(app, reference, amount)).id;
}

/** createCheckout, with the answer's headers too. */
export async function createCheckoutAnswered(
  app: string,
  reference: string,
  amount = "12.50",
): Promise<{ id: string; headers: http.IncomingHttpHeaders }> {
  const res = await request(`${app}/api/checkouts`, {
    method: "POST",
    headers: MERCHANT_HEADERS,
    body: checkoutBody(app, reference, amount),
  });
  const text = res.body.toString();
  if (res.status !== 200) throw new Error(`creating a checkout answered ${res.status}: ${text}`);
  return { id: (JSON.parse(text) as { id: string }).id, headers: res.headers };
}

/**
 * Starts a bank payment as the payer's page does (the sandbox's Swedbank, terms accepted); throws
 * unless it is answered 200.
 */
export async function startBankPayment(app: string, checkoutId: string, attemptKey: string): Promise<Fetched> {
  const res = await request(`${app}/api/checkouts/${checkoutId}/payments`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey }),
  });
  if (res.status !== 200) throw new Error(`payment start answered ${res.status}: ${res.body.toString()}`);
  return res;
}

/** The sandbox's payments for an order reference (its endToEndId), as its control API lists them. */
export async function providerPayments(app: RunningApp, reference: string): Promise<{ id: string }[]> {
  const found = await json<{ data: { id: string }[] }>(
    `${app.sandboxUrl}/_sandbox/payments?endToEndId=${encodeURIComponent(reference)}`,
  );
  return found.body.data;
}

/** Runs `task` over `items` with at most `concurrency` at once. */
export async function pool<T, R>(
  items: T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i] as T, i);
      }
    }),
  );
  return results;
}

/** A throwaway Postgres server (scripts/pg-throwaway.sh), or undefined when it cannot start here. */
export function startPostgres(): { url: string; stop(): void } | undefined {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-pg-"));
  const state = path.join(dir, "state.env");
  const r = spawnSync("bash", [path.join(root, "scripts/pg-throwaway.sh"), "start", state], { encoding: "utf8" });
  const stop = () => {
    spawnSync("bash", [path.join(root, "scripts/pg-throwaway.sh"), "stop", state]);
    rmSync(dir, { recursive: true, force: true });
  };
  if (r.status !== 0 || !r.stdout.trim()) {
    stop();
    return undefined;
  }
  return { url: r.stdout.trim(), stop };
}

/**
 * The production proxy in front of the app (scripts/deploy/Caddyfile), here without TLS: Caddy on
 * `port`, passing to the app on `appPort` with the deployment's own upstream transport settings.
 * Undefined when Caddy is not installed (Debian: `apt-get install caddy`).
 */
export async function startProxy(
  port: number,
  appPort: number,
): Promise<{ url: string; stop(): Promise<void> } | undefined> {
  if (spawnSync("caddy", ["version"]).status !== 0) return undefined;
  if (!(await portFree(port))) throw new Error(`port ${port} is in use`);
  const deployed = readFileSync(path.join(root, "scripts/deploy/Caddyfile"), "utf8");
  const transport = /^\s*transport http \{[^}]*\}/m.exec(deployed)?.[0] ?? "";
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-proxy-"));
  const config = path.join(dir, "Caddyfile");
  writeFileSync(
    config,
    `{\n\tadmin off\n\tauto_https off\n}\n:${port} {\n\treverse_proxy localhost:${appPort} {\n${transport}\n\t}\n}\n`,
  );
  const child = spawn("caddy", ["run", "--config", config, "--adapter", "caddyfile"], {
    detached: true,
    stdio: "ignore",
  });
  const url = `http://localhost:${port}`;
  const stop = async () => {
    await stopProcessGroup(child);
    rmSync(dir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 20_000; ;) {
    if (await healthy(url)) return { url, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error("the proxy did not start");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
