import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// Paths in this file resolve from e2e/, so everything that belongs at the repository root is
// made absolute from here.
const root = fileURLToPath(new URL("..", import.meta.url));
const CI = !!process.env.CI;
// Where the app servers write every API answer they give (lib/http/contract-record.ts).
const CONTRACT_DIR = path.join(root, ".data", "contract");
process.env.E2E_CONTRACT_DIR ??= CONTRACT_DIR;

// 3100/3101 unless overridden (e.g. to run next to another checkout's e2e run on the same machine).
const APP_PORT = Number(process.env.E2E_APP_PORT || 3100);
const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT || 3101);
const APP_URL = `http://localhost:${APP_PORT}`;

// Specs reach the sandbox provider (test bank pages, its admin API) through this.
process.env.SANDBOX_URL ??= `http://localhost:${SANDBOX_PORT}`;
// ...and the app itself, e.g. as the merchant's return URL.
process.env.E2E_APP_URL ??= APP_URL;
// The demo merchant site beside the first app: another origin, allowed to embed the bank picker.
process.env.E2E_DEMO_SITE_URL ??= `http://localhost:${APP_PORT + 2}`;
process.env.E2E_EMBED_TEST_PORT ??= String(APP_PORT + 3);

// Debian's Chromium: Playwright's own browsers cannot be downloaded here (docs: toolchain item 2).
// Do not add a --disable-features= flag: it would replace Playwright's own list.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
];

// Debian's binary itself, not its /usr/bin/chromium launcher: the launcher adds
// --enable-gpu-rasterization (from /etc/chromium.d), which rasterises in software on this GPU-less
// machine; without it the same specs took 7 % less CPU (ADR 28).
const DEBIAN_CHROMIUM = "/usr/lib/chromium/chromium";
const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : "/usr/bin/chromium"),
    args: CHROMIUM_ARGS,
  },
};

// A second, independent app + sandbox pair that talks to the provider in API v0.2.
const V02_APP_PORT = APP_PORT + 10;
const V02_URL = `http://localhost:${V02_APP_PORT}`;
// A third pair for saved bank accounts, whose test moves the sandbox clock by 91 days.
const SAVED_APP_PORT = APP_PORT + 20;
const SAVED_URL = `http://localhost:${SAVED_APP_PORT}`;
process.env.E2E_SAVED_SANDBOX_URL ??= `http://localhost:${SANDBOX_PORT + 20}`;
const SECOND_APP_SPECS = [
  "backoffice-login.spec.ts",
  "backoffice-payment-links.spec.ts",
  "backoffice-refund.spec.ts",
  "backoffice-staff.spec.ts",
  "checkout-i18n.spec.ts",
  "checkout-methods.spec.ts",
  "checkout-picker.spec.ts",
  "client.spec.ts",
  "duplicate-payment.spec.ts",
  "fuzz-pages.spec.ts",
  "metrics.spec.ts",
  "payer-a11y.spec.ts",
  "payer-stack.spec.ts",
  "payment-links.spec.ts",
  "sandbox-card.spec.ts",
  "saved-account.spec.ts",
];

/**
 * The whole app for e2e: `npm start` builds when no build exists, then starts the sandbox provider
 * on sandboxPort and `next start` on port. The embedded database starts empty on every run.
 */
function appServer(o: { port: number; sandboxPort: number; dataDir: string; apiVersion?: string }) {
  const url = `http://localhost:${o.port}`;
  const answers = path.join(CONTRACT_DIR, `${o.port}.jsonl`);
  return {
    command: `rm -rf ${o.dataDir} ${answers} && mkdir -p ${CONTRACT_DIR} && npm start`,
    cwd: root,
    url: `${url}/api/health`,
    timeout: 180_000,
    reuseExistingServer: !CI,
    env: {
      PORT: String(o.port),
      SANDBOX_PORT: String(o.sandboxPort),
      // The demo merchant site that embeds the bank picker, on another origin (issue 20), and the
      // pages e2e/embed.spec.ts serves itself on the next port.
      EMBED_DEMO_PORT: String(o.port + 2),
      EMBED_ORIGINS: `http://localhost:${o.port + 2},http://localhost:${o.port + 3}`,
      APP_URL: url,
      PGLITE_DIR: o.dataDir,
      PIS_API_VERSION: o.apiVersion ?? "v0.3",
      NEXT_TELEMETRY_DISABLED: "1",
      // Hermetic: the sandbox provider and the embedded database, whatever the shell has set.
      PIS_BASE_URL: "",
      DATABASE_URL: "",
      // Staff refunds above 500 wait for a second person (e2e/backoffice-staff.spec.ts, four eyes).
      REFUND_APPROVAL_ABOVE: "500",
      // A JSON line per request would bury the output that matters; warnings and errors still show.
      LOG_LEVEL: "warn",
      // Every API answer of the run, for e2e/contract.spec.ts to check against the OpenAPI document.
      CONTRACT_RECORD_FILE: answers,
    },
    stdout: CI ? ("pipe" as const) : ("ignore" as const),
    stderr: "pipe" as const,
    // Let `npm start` stop its own children (sandbox, next start); SIGKILL after 10 s.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
  };
}

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: path.join(root, "test-results"),
  fullyParallel: false,
  forbidOnly: CI,
  retries: 0,
  // One worker per app: the main project's specs share its sandbox's faults and clock, so they run
  // one at a time; the second worker runs the other apps' projects beside them (ADR 28).
  workers: CI ? 2 : undefined,
  // The back office's longer journeys (a payment, then several pages each checked by axe) take
  // 10-15 s alone; two workers on two cores can double that.
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: path.join(root, ".ci-out", "playwright.json") }]],
  use: {
    baseURL: APP_URL,
    // The sandbox's control API (/_sandbox/...) wants its documented test secret.
    extraHTTPHeaders: { "X-Sandbox-Secret": process.env.SANDBOX_CONTROL_SECRET || "sandbox-control-secret" },
    // A trace records a screenshot per action and the DOM: 12 % of the e2e run's CPU, for a file
    // CI's clean machine throws away. Kept for runs here, where a failure's trace can be opened.
    trace: CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    video: "off",
  },
  projects: [
    {
      name: "chromium",
      testIgnore: ["**/*.v02.spec.ts", ...SECOND_APP_SPECS, "contract.spec.ts", "expiry-real-time.spec.ts"],
      use: { ...chromium },
      workers: 1,
    },
    // The payer's journey again with the app speaking API v0.2 to the provider (issue 4), and the
    // tests that wait out the server's real clock, beside the main project.
    {
      name: "api-v0.2",
      testMatch: [
        "pay-approve.spec.ts",
        "pay-cancel.spec.ts",
        "webhook-only.spec.ts",
        "first-screen.spec.ts",
        "expiry-real-time.spec.ts",
      ],
      use: { ...chromium, baseURL: V02_URL },
      workers: 1,
    },
    // A third app, for saved bank accounts and the specs that need no fault or clock of the main
    // sandbox (staff, payment links, the typed client): they run beside the main project, which
    // would otherwise take most of the e2e run alone. The saved-account spec moves this sandbox's
    // clock 91 days, so it runs last here (a project's files run in name order on its one worker).
    {
      name: "second-app",
      testMatch: SECOND_APP_SPECS,
      use: { ...chromium, baseURL: SAVED_URL },
      workers: 1,
    },
    // After all the others: every API answer they caused, checked against the OpenAPI document.
    { name: "contract", testMatch: ["contract.spec.ts"], dependencies: ["chromium", "api-v0.2", "second-app"] },
  ],
  webServer: [
    appServer({ port: APP_PORT, sandboxPort: SANDBOX_PORT, dataDir: ".data/e2e" }),
    appServer({ port: V02_APP_PORT, sandboxPort: SANDBOX_PORT + 10, dataDir: ".data/e2e-v02", apiVersion: "v0.2" }),
    appServer({ port: SAVED_APP_PORT, sandboxPort: SANDBOX_PORT + 20, dataDir: ".data/e2e-saved" }),
  ],
});
