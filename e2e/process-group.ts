import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type APIRequestContext } from "@playwright/test";

/**
 * Servers a spec starts and kills itself (a crash with SIGKILL, a restart): each in a process
 * group of its own, so that killing it takes its children too.
 */
export const root = fileURLToPath(new URL("..", import.meta.url));

const stderrs = new WeakMap<ChildProcess, string>();

/** The last few KB a server wrote to stderr: why it died, or what it complained of. */
export const stderrOf = (child: ChildProcess): string => stderrs.get(child) ?? "";

export function startGroup(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(args[0]!, args.slice(1), {
    cwd: root,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  child.stderr?.on("data", (c: Buffer) => stderrs.set(child, (stderrOf(child) + c.toString()).slice(-3000)));
  return child;
}

export function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    try {
      process.kill(-child.pid, signal);
    } catch {
      resolve();
    }
  });
}

/** Waits until `url` answers 200, failing at once with its stderr if the server exits. */
export async function waitUp(request: APIRequestContext, url: string, child: ChildProcess) {
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`${url}: process exited with ${child.exitCode}\n${stderrOf(child)}`);
        return (await request.get(url, { timeout: 2000 }).catch(() => null))?.status();
      },
      { timeout: 90_000, intervals: [250] },
    )
    .toBe(200);
}

/**
 * `next start` itself, as `npm start` runs it, in sandbox mode against a sandbox started on its own
 * (npm start would start one in the process group a test kills, and might rebuild .next under the
 * e2e servers if a source changed). Its embedded database is migrated when the app first opens it.
 */
export async function startNextApp(
  request: APIRequestContext,
  opts: { port: number; sandboxPort: number; pgliteDir: string; env?: Record<string, string> },
): Promise<ChildProcess> {
  const url = `http://localhost:${opts.port}`;
  const app = startGroup([process.execPath, "node_modules/next/dist/bin/next", "start", "-p", String(opts.port)], {
    NODE_ENV: "production",
    PORT: String(opts.port),
    APP_URL: url,
    SANDBOX_PORT: String(opts.sandboxPort),
    PGLITE_DIR: opts.pgliteDir,
    DATABASE_URL: "",
    PIS_BASE_URL: "",
    PIS_API_VERSION: "v0.3",
    ...opts.env,
  });
  await waitUp(request, `${url}/api/health`, app);
  return app;
}

/** The sandbox provider on its own, a separate system that keeps running while the app is killed. */
export async function startSandbox(
  request: APIRequestContext,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const sandbox = startGroup(
    [process.execPath, path.join(root, "node_modules/tsx/dist/cli.mjs"), "lib/sandbox/server.ts"],
    {
      SANDBOX_PORT: String(port),
      ...env,
    },
  );
  await waitUp(request, `http://localhost:${port}/health`, sandbox);
  return sandbox;
}
