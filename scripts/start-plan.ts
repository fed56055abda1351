import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
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
  /** Lines of its stderr that are not passed on. */
  dropFromStderr?: RegExp;
}

/**
 * Next's advice, at every `next start` of this build, to run .next/standalone/server.js instead.
 * Right for a deployment (the image does), wrong here: npm start serves the same build with
 * `next start`, beside the sandbox, which server.js alone would leave out.
 */
export const NEXT_STANDALONE_WARNING = /"next start" does not work with "output: standalone" configuration/;

/** Copies `input` to `output` line by line, leaving out the lines `drop` matches. */
export function passLines(input: Readable, output: Writable, drop: RegExp): void {
  createInterface({ input, crlfDelay: Infinity }).on("line", (line) => {
    if (!drop.test(line)) output.write(`${line}\n`);
  });
}

/**
 * How long the app keeps an idle keep-alive connection: longer than a load balancer's or a client's
 * own idle timeout (60 s is common), so the server never closes one just as the other end sends on it
 * (the request then fails with a reset connection). Node's default is 5 s. The Dockerfile sets the
 * same for the standalone server (KEEP_ALIVE_TIMEOUT).
 */
export const KEEP_ALIVE_MS = 65_000;

/**
 * What `npm start` runs: the sandbox provider and the demo merchant site (the bank picker embedded
 * in another origin's page) only when no real provider is configured.
 */
export function processesFor(settings: Pick<Env, "sandbox" | "port">, dev: boolean): ProcessSpec[] {
  const serve = dev ? ["dev"] : ["start", "--keepAliveTimeout", String(KEEP_ALIVE_MS)];
  const next = {
    name: "next",
    args: ["node_modules/next/dist/bin/next", ...serve, "-p", String(settings.port)],
    dropFromStderr: NEXT_STANDALONE_WARNING,
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
