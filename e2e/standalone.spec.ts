import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { ERROR_TEXT } from "@/lib/i18n/error-text";
import { expectNoAxeViolations } from "./axe";
import { createCheckout } from "./journey";
import { startTcpRelay, type TcpRelay } from "./tcp-relay";

/**
 * The container image's server: Next's standalone output, started the way the Dockerfile starts it
 * (`node server.js` in .next/standalone, static files beside it) against a fresh database on the
 * throwaway Postgres that `npm test` starts (TEST_DATABASE_URL), with the sandbox as provider.
 * The server reaches its database through a relay the spec can cut, as a restart would, without
 * touching the Postgres other tests use. Own ports (3500/3501).
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const standalone = path.join(root, ".next/standalone");
const PORT = Number(process.env.E2E_STANDALONE_PORT || 3500);
const APP = `http://127.0.0.1:${PORT}`;
const SANDBOX_PORT = PORT + 1;
const RETURN_URL = "https://shop.example/done";
const adminUrl = process.env.TEST_DATABASE_URL;

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: APP });
test.skip(!adminUrl, "needs TEST_DATABASE_URL: npm test starts a throwaway Postgres");

let server: ChildProcess | undefined;
let sandbox: ChildProcess | undefined;
let relay: TcpRelay | undefined;
let log = "";
const database = `standalone_${Date.now()}`;
const databaseUrl = adminUrl ? Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString() : "";
const relayed = (port: number) => Object.assign(new URL(databaseUrl), { hostname: "127.0.0.1", port }).toString();

function run(args: string[], cwd: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-6000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return child;
}

async function up(url: string, child: ChildProcess) {
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${log}`);
        return (await fetch(url).catch(() => null))?.status;
      },
      { timeout: 60_000, intervals: [250] },
    )
    .toBe(200);
}

test.beforeAll(async () => {
  expect(
    existsSync(path.join(standalone, "server.js")),
    "the build has a standalone server (next.config.mjs output)",
  ).toBe(true);
  // What the Dockerfile copies next to it.
  cpSync(path.join(root, ".next/static"), path.join(standalone, ".next/static"), { recursive: true });
  cpSync(path.join(root, "public"), path.join(standalone, "public"), { recursive: true });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();

  // tsx as a loader in this very process, not its CLI (which runs the server in a child that a
  // kill of the CLI would leave behind, holding the port).
  sandbox = run(["--import", "tsx", "lib/sandbox/server.ts"], root, {
    SANDBOX_PORT: String(SANDBOX_PORT),
    SANDBOX_DATA_DIR: "",
  });
  await up(`http://127.0.0.1:${SANDBOX_PORT}/health`, sandbox);
  const db = new URL(databaseUrl);
  relay = await startTcpRelay(db.hostname, Number(db.port || 5432));
  server = run(["server.js"], standalone, {
    NODE_ENV: "production",
    PORT: String(PORT),
    HOSTNAME: "127.0.0.1",
    APP_URL: APP,
    DATABASE_URL: relayed(relay.port),
    PIS_BASE_URL: "",
    SANDBOX_PORT: String(SANDBOX_PORT),
    PGLITE_DIR: "",
  });
  await up(`${APP}/api/health`, server);
});

test.afterAll(async () => {
  for (const child of [server, sandbox]) if (child && child.exitCode === null) child.kill("SIGKILL");
  await relay?.close();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
});

// What the soak checks over HTTP during real restarts (ADR 39), seen here in a browser.
test("while its database is away a payer's page is a 503 that says so in the payer's language, and shows itself again once it is back", async ({
  page,
  request,
}) => {
  const id = await createCheckout(request, { description: "Away and back", returnUrl: RETURN_URL });
  const address = `${APP}/checkout/${id}?lang=lv`;
  relay!.cut();
  // The instance learns it from its pool's dropped connections, or its outbox's next claim.
  await expect
    .poll(async () => (await request.get(address, { headers: { Accept: "text/html" } })).status(), { timeout: 15_000 })
    .toBe(503);
  const answer = await page.goto(address);
  expect(answer!.status()).toBe(503);
  expect(answer!.headers()["retry-after"]).toBe("5");
  await expect(page.getByRole("heading", { name: ERROR_TEXT.lv.awayTitle })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "lv");
  await expect(page.getByText(ERROR_TEXT.lv.awayRetry)).toBeVisible();
  await expectNoAxeViolations(page);

  relay!.restore();
  // Nobody touches the page: its own retry, every 5 s, finds the checkout at the same address.
  await expect(page.getByText("Away and back")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: ERROR_TEXT.lv.awayTitle })).toHaveCount(0);
  expect(page.url()).toBe(address);
});

test("the standalone server migrates a fresh Postgres, is ready, serves the checkout and takes a payment, and stops on SIGTERM", async ({
  request,
}) => {
  const ready = await request.get(`${APP}/api/health/ready`);
  expect(await ready.json()).toEqual({ status: "ready", database: "ok", provider: "ok" });

  const id = await createCheckout(request, { description: "Standalone", returnUrl: RETURN_URL });

  const page = await request.get(`${APP}/checkout/${id}`);
  expect(page.status()).toBe(200);
  const script = /<script src="(\/_next\/static\/[^"]+\.js)"/.exec(await page.text())?.[1];
  expect(script).toBeTruthy();
  expect((await request.get(`${APP}${script}`)).status()).toBe(200);

  const start = await request.post(`${APP}/api/checkouts/${id}/payments`, {
    data: { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `sa-${Date.now()}` },
  });
  expect(start.status()).toBe(200);

  // The image's first admin: `node staff.mjs add` beside server.js prints a link the server opens.
  const added = spawnSync(process.execPath, ["staff.mjs", "add", "--email", "ops@shop.example", "--role", "admin"], {
    cwd: standalone,
    env: { ...process.env, APP_URL: APP, DATABASE_URL: databaseUrl, PGLITE_DIR: "" },
    encoding: "utf8",
  });
  expect(added.status, added.stderr).toBe(0);
  const link = /http\S+\/backoffice\/set-password\/\S+/.exec(added.stdout)?.[0];
  expect(link, added.stdout).toBeDefined();
  const setPassword = await request.get(link!);
  expect(setPassword.status()).toBe(200);
  expect(await setPassword.text()).toContain("ops@shop.example");

  const exited = new Promise<number | null>((resolve) => server!.once("exit", (code) => resolve(code)));
  server!.kill("SIGTERM");
  expect(await exited).toBe(143);
  // Its log is JSON lines, one per request.
  const lines = log
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines).toContainEqual(
    expect.objectContaining({
      msg: "request",
      method: "POST",
      route: "/api/checkouts/{id}/payments",
      status: 200,
      reqId: expect.any(String),
    }),
  );
});
