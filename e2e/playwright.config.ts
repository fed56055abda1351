import { fileURLToPath } from "node:url";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// Paths in this file resolve from e2e/, so everything that belongs at the repository root is
// made absolute from here.
const root = fileURLToPath(new URL("..", import.meta.url));
const CI = !!process.env.CI;

// 3100/3101 unless overridden (e.g. to run next to another checkout's e2e run on the same machine).
const APP_PORT = Number(process.env.E2E_APP_PORT || 3100);
const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT || 3101);
const APP_URL = `http://localhost:${APP_PORT}`;

// Specs reach the sandbox provider (test bank pages, its admin API) through this.
process.env.SANDBOX_URL ??= `http://localhost:${SANDBOX_PORT}`;

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

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: path.join(root, "test-results"),
  fullyParallel: false,
  forbidOnly: CI,
  retries: 0,
  workers: CI ? 1 : undefined,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: path.join(root, ".ci-out", "playwright.json") }]],
  use: {
    baseURL: APP_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    video: "off",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
  webServer: {
    // `npm start` builds when no build exists, then starts the sandbox provider on SANDBOX_PORT
    // and `next start` on PORT. The embedded database starts empty on every run.
    command: "rm -rf .data/e2e && npm start",
    cwd: root,
    url: `${APP_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: !CI,
    env: {
      PORT: String(APP_PORT),
      SANDBOX_PORT: String(SANDBOX_PORT),
      APP_URL,
      PGLITE_DIR: ".data/e2e",
      NEXT_TELEMETRY_DISABLED: "1",
      // Hermetic: the sandbox provider and the embedded database, whatever the shell has set.
      PIS_BASE_URL: "",
      DATABASE_URL: "",
    },
    stdout: CI ? "pipe" : "ignore",
    stderr: "pipe",
    // Let `npm start` stop its own children (sandbox, next start); SIGKILL after 10 s.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
