import type { Env } from "../lib/env";

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
