import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root,
  resolve: { alias: { "@": root, "server-only": fileURLToPath(new URL("./server-only-stub.ts", import.meta.url)) } },
  test: {
    include: [
      "lib/**/*.test.ts",
      "components/**/*.test.{ts,tsx}",
      "app/**/*.test.{ts,tsx}",
      "scripts/**/*.test.ts",
      "clients/typescript/src/**/*.test.ts",
      "deploy/**/*.test.ts",
      "proxy.test.ts",
    ],
    environment: "node",
    // Code that reaches the application context (the route wrapper) gets an in-memory database: the
    // developer's .data/pglite is locked to one process (ADR 15), and tests run in parallel workers.
    env: { PGLITE_DIR: "memory://", LOG_LEVEL: "warn" },
    globalSetup: ["scripts/vitest.global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // PGlite instances are heavy; one file at a time per worker keeps memory flat on 2 cores.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
