/**
 * `npm run deploy:rehearse`: compose.yaml's deployment run on this machine without Docker (ADR 38).
 * The standalone server (what the image runs) three times on one Postgres, behind Caddy with the
 * repository's Caddyfile over HTTPS from Caddy's own CA, `TRUSTED_PROXY_HOPS=1`, in real-provider
 * mode against the sandbox over HTTP. Then it checks what only the whole path can show: one
 * payment end to end through the proxy, requests spread over the three instances, and rate limits
 * keyed by the client's real address (X-Forwarded-For neither borrowed nor escaped). Prints each
 * check, exits 1 when one fails; stops everything on the way out, Ctrl-C included.
 *
 * Builds first when the build is missing or older than the sources, as `npm start` does
 * (`-- --build`: always). Needs Caddy (`apt-get install caddy`) and Postgres's binaries
 * (scripts/pg-throwaway.sh installs them).
 * Ports: instances 3400-3402, receiver 3408, sandbox 3409, HTTPS 8443, HTTP 8080 (redirects).
 */
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { SANDBOX_CONTROL, portFree, startPostgres, stopProcessGroup } from "../bench-app";
import { buildApp, buildIsStale } from "../build";
import { spawnGroup, waitHealthy, type Env, type Spawned } from "../chaos/processes";
import { startReceiver } from "../chaos/receiver";
import { caddyInstalled, caddyRehearsal } from "./caddy";

const root = path.resolve(import.meta.dirname, "../..");
const standalone = path.join(root, ".next/standalone");
const PORTS = { instances: [3400, 3401, 3402], receiver: 3408, sandbox: 3409, https: 8443, http: 8080 };
const APP_URL = `https://localhost:${PORTS.https}`;
// localhost: the origin of the confirmLinks it makes, which the app follows only to its provider.
const SANDBOX_URL = `http://localhost:${PORTS.sandbox}`;
/** Payment starts per minute per client address: small, so the limit is reached in a few requests. */
const PAYMENTS_PER_IP = 3;
const MERCHANT_KEY = randomBytes(24).toString("hex");
const NOTIFY_SECRET = randomBytes(24).toString("hex");

const t0 = Date.now();
const log = (msg: string) => console.log(`[rehearse ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const children: Spawned[] = [];
const instances: Spawned[] = [];
let postgres: { url: string; stop(): void } | undefined;
let closeReceiver: (() => void) | undefined;
let workDir: string | undefined;

/** Every line each process wrote, for a failed run: .ci-out/deploy-rehearsal.log. */
function writeLogs(): string {
  const file = path.join(root, ".ci-out/deploy-rehearsal.log");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, children.map((c) => c.tail.join("\n")).join("\n\n") + "\n");
  return file;
}

let stopping: Promise<void> | undefined;
/** Stops every process started here (each its whole group), Postgres, and removes the work dir. */
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    closeReceiver?.();
    await Promise.all(children.map((c) => stopProcessGroup(c)));
    postgres?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  })();
  return stopping;
}
process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));
process.on("SIGTERM", () => void stopAll().then(() => process.exit(143)));

interface Check {
  name: string;
  ok: boolean;
  value: string;
}
const checks: Check[] = [];
function check(name: string, ok: boolean, value: string) {
  checks.push({ name, ok, value });
  console.log(`  ${ok ? "ok  " : "FAIL"} ${name}: ${value}`);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown>;
}

let caRoot: Buffer | undefined;

/**
 * One request on a fresh connection, as a client on `from` (any 127/8 address: all of it is this
 * machine's loopback on Linux) would send it; https trusts Caddy's root unless `ca` says otherwise.
 */
function send(
  url: string,
  o: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    from?: string;
    ca?: Buffer | "system";
  } = {},
): Promise<Answer> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      target,
      {
        method: o.method ?? "GET",
        headers: { ...(o.body !== undefined && { "Content-Length": Buffer.byteLength(o.body) }), ...o.headers },
        family: 4,
        localAddress: o.from,
        agent: false,
        ...(secure && o.ca !== "system" && { ca: o.ca ?? caRoot }),
        timeout: 20_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // a page, or a proxy's error
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout: ${o.method ?? "GET"} ${url}`)));
    req.on("error", reject);
    req.end(o.body);
  });
}

const merchant = { Authorization: `Bearer ${MERCHANT_KEY}`, "Content-Type": "application/json" };
/** What a browser on the checkout page sends with its fetch (the payment routes take only their own pages). */
const payerPage = { "Content-Type": "application/json", Origin: APP_URL, "Sec-Fetch-Site": "same-origin" };

/** X-Request-Id of every answer that came through the proxy, to find in the instances' logs. */
const requestIds: string[] = [];
async function viaProxy(pathname: string, o: Parameters<typeof send>[1] = {}): Promise<Answer> {
  const answer = await send(`${APP_URL}${pathname}`, o);
  const id = answer.headers["x-request-id"];
  if (typeof id === "string") requestIds.push(id);
  return answer;
}

let references = 0;
async function createCheckout(notifyUrl?: string): Promise<{ id: string; url: string }> {
  const created = await viaProxy("/api/checkouts", {
    method: "POST",
    headers: { ...merchant, "Idempotency-Key": randomBytes(8).toString("hex") },
    body: JSON.stringify({
      amount: "24.90",
      currency: "EUR",
      description: "Rehearsal order",
      reference: `rehearsal-${++references}`,
      returnUrl: "https://shop.example/thanks",
      ...(notifyUrl && { notifyUrl }),
    }),
  });
  if (created.status !== 200) throw new Error(`creating a checkout answered ${created.status}: ${created.text}`);
  return { id: String(created.json.id), url: String(created.json.url) };
}

const startPayment = (checkoutId: string, from?: string, forwardedFor?: string) =>
  viaProxy(`/api/checkouts/${checkoutId}/payments`, {
    method: "POST",
    from,
    headers: { ...payerPage, ...(forwardedFor && { "X-Forwarded-For": forwardedFor }) },
    body: JSON.stringify({
      method: "bank",
      bankId: "SWEDBANK_LT_SAND",
      termsAccepted: true,
      attemptKey: randomBytes(8).toString("hex"),
    }),
  });

/** The payer at the sandbox bank: opens the confirmLink, signs in as test/1234, approves. Returns where the bank sends the payer. */
async function approveAtBank(confirmLink: string): Promise<string> {
  const opened = await send(confirmLink);
  const cookie = String(opened.headers["set-cookie"] ?? "").split(";")[0]!;
  const flow = new URL(String(opened.headers.location), confirmLink).pathname.replace(/\/step$/, "");
  const form = (body: Record<string, string>) => ({
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams(body).toString(),
  });
  const login = await send(`${SANDBOX_URL}${flow}/login`, form({ username: "test", password: "1234" }));
  if (login.status !== 303) throw new Error(`the bank's login answered ${login.status}`);
  const approved = await send(`${SANDBOX_URL}${flow}/approve`, form({}));
  if (approved.status !== 303) throw new Error(`the bank's approval answered ${approved.status}`);
  return String(approved.headers.location);
}

async function until<T>(what: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const found = await what();
    if (found !== undefined) return found;
    await sleep(200);
  }
  return undefined;
}

/** The deployment's settings for every instance, as compose.yaml gives them, with this machine's values. */
function instanceEnv(databaseUrl: string, port: number): Env {
  return {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    // As the Dockerfile sets them; 127.0.0.1: only the proxy reaches an instance, as in compose.
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    KEEP_ALIVE_TIMEOUT: "65000",
    DATABASE_URL: databaseUrl,
    APP_URL,
    PIS_BASE_URL: `${SANDBOX_URL}/platform`,
    PIS_API_VERSION: "v0.3",
    PIS_CLIENT_ID: "sandbox-client-id",
    PIS_CLIENT_SECRET: "sandbox-client-secret",
    PIS_WEBHOOK_SECRET: "sandbox-webhook-secret",
    MERCHANT_API_KEY: MERCHANT_KEY,
    MERCHANT_NOTIFY_SECRET: NOTIFY_SECRET,
    TOKEN_ENCRYPTION_KEYS: `rehearsal:${randomBytes(32).toString("base64")}`,
    CREDITOR_NAME: "Rehearsal Shop UAB",
    CREDITOR_IBAN: "LT601010012345678901",
    TRUSTED_PROXY_HOPS: "1",
    RATE_LIMIT_PAYMENTS_PER_IP: String(PAYMENTS_PER_IP),
    // The provider is the sandbox over plain http on this machine (with its test project), and
    // the merchant's notifyUrl is on loopback: neither is allowed in a real deployment.
    ALLOW_INSECURE_SETTINGS: "true",
    ALLOW_PRIVATE_URLS: "true",
    LOG_LEVEL: "info",
  };
}

async function main(): Promise<number> {
  if (!caddyInstalled()) throw new Error("Caddy is not installed: apt-get install caddy (Debian's package)");
  for (const port of [...PORTS.instances, PORTS.receiver, PORTS.sandbox, PORTS.https, PORTS.http])
    if (!(await portFree(port))) throw new Error(`port ${port} is in use`);

  if (process.argv.includes("--build") || !existsSync(path.join(standalone, "server.js")) || buildIsStale()) {
    log("building (npm run build): the build is missing or older than the sources");
    if (buildApp() !== 0) throw new Error("the build failed");
  }
  // What the Dockerfile copies beside server.js, and what it removes from it.
  cpSync(path.join(root, ".next/static"), path.join(standalone, ".next/static"), { recursive: true });
  cpSync(path.join(root, "public"), path.join(standalone, "public"), { recursive: true });
  for (const f of [".env", ".env.production", ".env.local", ".env.production.local"])
    rmSync(path.join(standalone, f), { force: true });

  workDir = mkdtempSync(path.join(os.tmpdir(), "deploy-rehearse-"));
  postgres = startPostgres();
  if (!postgres) throw new Error("could not start a throwaway Postgres (scripts/pg-throwaway.sh)");
  log(`Postgres at ${postgres.url}`);

  // Caddy first: it makes its CA, which the sandbox must trust to send webhooks to APP_URL.
  const proxy = caddyRehearsal(workDir, PORTS);
  const caddyfile = path.join(workDir, "Caddyfile");
  writeFileSync(caddyfile, proxy.config);
  const caddy = spawnGroup(["run", "--config", caddyfile, "--adapter", "caddyfile"], proxy.env, "caddy", {
    command: "caddy",
  });
  children.push(caddy);
  const made = await until(async () => (existsSync(proxy.rootCertificate) ? true : undefined), 30_000);
  if (!made) throw new Error(`Caddy made no CA:\n${caddy.tail.slice(-10).join("\n")}`);
  caRoot = readFileSync(proxy.rootCertificate);
  log(`Caddy on ${APP_URL} (HTTP ${PORTS.http}), its root CA ${proxy.rootCertificate}`);

  const sandbox = spawnGroup(
    ["--import", "tsx", "lib/sandbox/server.ts"],
    {
      PATH: process.env.PATH,
      SANDBOX_PORT: String(PORTS.sandbox),
      SANDBOX_CONTROL_SECRET: SANDBOX_CONTROL["X-Sandbox-Secret"],
      NODE_EXTRA_CA_CERTS: proxy.rootCertificate,
    },
    "sandbox",
  );
  children.push(sandbox);
  await waitHealthy(`${SANDBOX_URL}/health`, 30_000);

  // The chaos run's merchant, checking signatures; a roll of 1 never fails nor slows a delivery.
  const receiver = await startReceiver(PORTS.receiver, NOTIFY_SECRET, { next: () => 1, pick: (items) => items[0]! });
  closeReceiver = () => receiver.server.close();

  // All three at once, as compose starts them: each migrates under the advisory lock.
  const startedAt = Date.now();
  for (const port of PORTS.instances) {
    const child = spawnGroup(["server.js"], instanceEnv(postgres.url, port), `app:${port}`, { cwd: standalone });
    children.push(child);
    instances.push(child);
  }
  await Promise.all(PORTS.instances.map((port) => waitHealthy(`http://127.0.0.1:${port}/api/health/ready`, 90_000)));
  log(`3 instances ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s on ${PORTS.instances.join(", ")}`);

  console.log("\nthe proxy:");
  const ready = await viaProxy("/api/health/ready");
  check(
    "HTTPS through Caddy with its internal CA",
    ready.status === 200 && ready.json.status === "ready",
    `${ready.status} ${ready.text}`,
  );
  const untrusted = await send(`${APP_URL}/api/health`, { ca: "system" }).then(
    (a) => `answered ${a.status}`,
    (err: NodeJS.ErrnoException) => err.code ?? err.message,
  );
  check(
    "a client that does not trust Caddy's CA is refused at the handshake",
    /CERT|SELF_SIGNED|UNABLE/.test(untrusted),
    untrusted,
  );
  const plain = await send(`http://localhost:${PORTS.http}/checkout/x`);
  check(
    "plain HTTP is redirected to HTTPS",
    plain.status === 308 && String(plain.headers.location) === `${APP_URL}/checkout/x`,
    `${plain.status} ${plain.headers.location}`,
  );

  console.log("\none payment end to end:");
  const notifyUrl = `http://127.0.0.1:${PORTS.receiver}/notify`;
  const checkout = await createCheckout(notifyUrl);
  check(
    "the merchant creates a checkout through the proxy",
    checkout.url === `${APP_URL}/checkout/${checkout.id}`,
    checkout.url,
  );
  const page = await viaProxy(`/checkout/${checkout.id}`, { headers: { "Accept-Encoding": "gzip" } });
  check(
    "the payer's checkout page is served, compressed",
    page.status === 200 && page.headers["content-encoding"] === "gzip",
    `${page.status} ${page.headers["content-encoding"] ?? "uncompressed"}`,
  );
  const started = await startPayment(checkout.id);
  const confirmLink = String(started.json.confirmLink);
  check(
    "the payer's Pay starts a payment at the provider",
    started.status === 200,
    started.status === 200 ? confirmLink : `${started.status} ${started.text}`,
  );
  const paymentId = /\/login\/([^/?]+)/.exec(confirmLink)?.[1];
  const back = await approveAtBank(confirmLink);
  const approvedAt = Date.now();
  check(
    "the sandbox bank approves and sends the payer back to APP_URL",
    back.startsWith(`${APP_URL}/checkout/${checkout.id}/return`),
    back,
  );
  const landing = await viaProxy(new URL(back).pathname + new URL(back).search);
  check("the landing page is served", landing.status === 200, String(landing.status));
  const paid = await until(async () => {
    const s = await viaProxy(`/api/checkouts/${checkout.id}/status`);
    return s.json.status === "paid" ? s : undefined;
  }, 15_000);
  const attempt = paid?.json.attempt as { providerStatus?: string } | undefined;
  check(
    "the landing's status is paid",
    paid !== undefined,
    paid ? `paid, the bank's status ${attempt?.providerStatus}` : "not paid within 15 s",
  );
  type Delivery = { url: string; statusCode: number | null; error?: string };
  let deliveries: Delivery[] = [];
  const webhook = await until(async () => {
    const answer = await fetch(`${SANDBOX_URL}/_sandbox/webhooks?paymentId=${paymentId}`, { headers: SANDBOX_CONTROL });
    deliveries = ((await answer.json()) as { data: Delivery[] }).data;
    return deliveries.find((d) => d.statusCode === 200);
  }, 15_000);
  check(
    "the provider's webhook reached the app over HTTPS through the proxy",
    webhook?.url.startsWith(`${APP_URL}/api/webhooks/pis?`) === true,
    webhook
      ? `${webhook.statusCode} ${webhook.url.split("?")[0]}`
      : `none answered 200 within 15 s: ${deliveries.map((d) => `${d.statusCode ?? d.error} ${d.url}`).join("; ")}`,
  );
  const notified = await until(
    async () => receiver.receipts.find((r) => r.checkoutId === checkout.id && r.event === "checkout.paid"),
    20_000,
  );
  check(
    "the merchant's notification arrives, signed",
    notified !== undefined && receiver.badSignatures() === 0,
    notified
      ? `${notified.event}, ${((notified.at - approvedAt) / 1000).toFixed(1)} s after the approval`
      : "none within 20 s",
  );

  console.log("\nrate limits by the client's real address:");
  // One checkout per start, so only the per-address limit can refuse.
  const fresh = await Promise.all(Array.from({ length: 9 }, () => createCheckout()));
  const [a, b] = ["127.0.0.2", "127.0.0.3"];
  const codes: number[] = [];
  for (let i = 0; i < PAYMENTS_PER_IP; i++) codes.push((await startPayment(fresh[i]!.id, a)).status);
  const refused = await startPayment(fresh[3]!.id, a);
  check(
    `${a} gets ${PAYMENTS_PER_IP} starts a minute, then 429 with Retry-After`,
    codes.every((c) => c === 200) && refused.status === 429 && Number(refused.headers["retry-after"]) > 0,
    `${codes.join(", ")}, then ${refused.status} ${String(refused.json.code ?? "")} Retry-After ${refused.headers["retry-after"] ?? "none"}`,
  );
  const escaping = await startPayment(fresh[4]!.id, a, "198.51.100.7");
  check(
    `${a} cannot escape its limit by sending its own X-Forwarded-For`,
    escaping.status === 429,
    `X-Forwarded-For: 198.51.100.7 -> ${escaping.status}`,
  );
  const borrowing = await startPayment(fresh[5]!.id, b, a);
  check(
    `${b} is not ${a}: its own limit, even when it claims to be ${a}`,
    borrowing.status === 200,
    `X-Forwarded-For: ${a} -> ${borrowing.status}`,
  );
  const rest: number[] = [];
  for (let i = 6; i < 9; i++) rest.push((await startPayment(fresh[i]!.id, b)).status);
  check(
    `that claim counted against ${b} itself`,
    rest.join(",") === [...Array<number>(PAYMENTS_PER_IP - 1).fill(200), 429].join(","),
    `${b}'s next starts: ${rest.join(", ")}`,
  );

  console.log("\nthe instances:");
  // A few more reads, so that round robin has had its turn on every instance.
  for (let i = 0; i < 6; i++) await viaProxy("/api/health/ready");
  const served = instances.map((child) => {
    const lines = child.tail.join("\n");
    return requestIds.filter((id) => lines.includes(`"reqId":"${id}"`)).length;
  });
  const found = served.reduce((n, s) => n + s, 0);
  check(
    "requests are spread over all three instances, each logged with the proxy's X-Request-Id",
    served.every((n) => n > 0) && found === requestIds.length,
    `${PORTS.instances.map((p, i) => `${p}: ${served[i]}`).join(", ")} of ${requestIds.length} (${found} found in a log)`,
  );

  // compose's `docker compose stop`: SIGTERM, and 30 s of grace.
  const stops = await Promise.all(
    instances.map(async (child) => {
      const from = Date.now();
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
      process.kill(child.pid!, "SIGTERM");
      const code = await Promise.race([exited, sleep(30_000).then(() => "timeout" as const)]);
      return { code, seconds: (Date.now() - from) / 1000 };
    }),
  );
  check(
    // 143: Next's own exit after it finished the requests in flight (e2e/standalone.spec.ts).
    "each instance stops on SIGTERM within compose's grace period (exit 143, Next's graceful stop)",
    stops.every((s) => s.code === 143),
    stops.map((s) => `${s.code} in ${s.seconds.toFixed(1)} s`).join(", "),
  );

  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) log(`every process's output: ${writeLogs()}`);
  log(`${checks.length - failed.length} passed, ${failed.length} failed`);
  return failed.length === 0 ? 0 : 1;
}

main()
  .then(async (code) => {
    await stopAll();
    process.exit(code);
  })
  .catch(async (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    if (children.length > 0) console.error(`every process's output: ${writeLogs()}`);
    await stopAll();
    process.exit(1);
  });
