import { createRequire } from "node:module";
import { loadEnv, type Env } from "../lib/env";

// Next's own .env loader. Required, not imported: it is a bundled CommonJS module whose names
// Node's ESM loader cannot see.
const { loadEnvConfig } = createRequire(import.meta.url)("@next/env") as typeof import("@next/env");

export interface ProcessSpec {
  name: string;
  /** Arguments to `node`, relative to the repository root. */
  args: string[];
  /** The app runs without it: when it stops (its port taken, say), the rest keeps running. */
  optional?: boolean;
}

/**
 * What `npm start` runs: the sandbox provider and the demo merchant site (the bank picker embedded
 * in another origin's page) only when no real provider is configured.
 */
export function processesFor(settings: Pick<Env, "sandbox" | "port">, dev: boolean): ProcessSpec[] {
  const next = {
    name: "next",
    args: ["node_modules/next/dist/bin/next", dev ? "dev" : "start", "-p", String(settings.port)],
  };
  const sandbox = { name: "sandbox provider", args: ["--import", "tsx", "lib/sandbox/server.ts"] };
  const demoSite = {
    name: "demo merchant site",
    args: ["--import", "tsx", "scripts/demo-site/server.ts"],
    optional: true,
  };
  return settings.sandbox ? [sandbox, next, demoSite] : [next];
}

/**
 * The settings the app will run with: the environment, then `dir`'s .env files, read by Next's own
 * loader (.env.production.local, .env.local, .env.production, .env; .development in dev, .test
 * under NODE_ENV=test; the environment wins). Read here too, so that npm start's checks and its
 * choice of the sandbox agree with the app, and the sandbox and demo site it starts see them.
 */
export function loadStartSettings(dir: string, dev: boolean): Env {
  loadEnvConfig(dir, dev, console, true);
  return loadEnv(process.env);
}
