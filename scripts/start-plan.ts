import type { Env } from "../lib/env";

export interface ProcessSpec {
  name: string;
  /** Arguments to `node`, relative to the repository root. */
  args: string[];
}

/** What `npm start` runs: the sandbox provider only when no real provider is configured. */
export function processesFor(settings: Pick<Env, "sandbox" | "port">, dev: boolean): ProcessSpec[] {
  const next = {
    name: "next",
    args: ["node_modules/next/dist/bin/next", dev ? "dev" : "start", "-p", String(settings.port)],
  };
  const sandbox = { name: "sandbox provider", args: ["--import", "tsx", "lib/sandbox/server.ts"] };
  return settings.sandbox ? [sandbox, next] : [next];
}
