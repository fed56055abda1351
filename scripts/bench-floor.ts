/**
 * The framework's floor for `npm run bench` (issue 19): scripts/bench-fixture is a bare Next app
 * with one route handler answering a small JSON, and no start-up work. It is built by the same Next
 * as the app (again when the Next version or the fixture changes) and started with `next start`
 * beside it, so every server figure can be printed as a ratio to what the framework alone does on
 * this machine.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { portFree, request, root, serverCpuMs, stopProcessGroup } from "./bench-app";

const fixture = path.join(root, "scripts", "bench-fixture");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

export interface Floor {
  /** The bare route handler (GET, a small JSON). */
  url: string;
  /** The bare page, for Lighthouse. */
  pageUrl: string;
  /** The bare page with the security headers every page of ours sends. */
  securedPageUrl: string;
  /** A route handler that reads a POST's JSON body and answers a small JSON: a POST's floor. */
  postUrl: string;
  /** A route handler that relays a provider call (POST, to `X-Relay-To`): a payment start's floor. */
  relayUrl: string;
  /** A route handler answering what was PUT to it (headers and body): the bank list's floor. */
  mirrorUrl: string;
  /** CPU time its server has used so far, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

function nextVersion(): string {
  return (
    JSON.parse(readFileSync(path.join(root, "node_modules", "next", "package.json"), "utf8")) as { version: string }
  ).version;
}

/** This Next version and the fixture's own files: a build made from anything else is rebuilt. */
function fixtureStamp(): string {
  const hash = createHash("sha256").update(nextVersion());
  // Its sources only: the build's own output (.next, thousands of files) is not walked.
  const sources = readdirSync(fixture)
    .filter((name) => name !== ".next")
    .flatMap((name) =>
      statSync(path.join(fixture, name)).isDirectory()
        ? readdirSync(path.join(fixture, name), { recursive: true, encoding: "utf8" }).map((f) => path.join(name, f))
        : [name],
    )
    .filter((file) => statSync(path.join(fixture, file)).isFile())
    .sort();
  for (const file of sources) hash.update(file).update(readFileSync(path.join(fixture, file)));
  return hash.digest("hex");
}

/** Builds the fixture unless a build of these sources by this Next version is there. */
function buildFixture() {
  const stamp = path.join(fixture, ".next", "bench-stamp");
  const version = fixtureStamp();
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === version) return;
  const built = spawnSync(process.execPath, [nextBin, "build", fixture], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`building the bare fixture failed:\n${built.stderr || built.stdout}`);
  writeFileSync(stamp, version);
}

export async function startFloor(port: number): Promise<Floor> {
  if (!(await portFree(port))) throw new Error(`port ${port} is in use`);
  buildFixture();
  // On loopback only: its relay and its mirror answer whatever the bench hands them.
  const child = spawn(process.execPath, [nextBin, "start", fixture, "-p", String(port), "-H", "localhost"], {
    cwd: root,
    detached: true,
    stdio: "ignore",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  const url = `http://localhost:${port}/api/ping`;
  const deadline = Date.now() + 60_000;
  while (
    (await request(url, { timeoutMs: 2000 }).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopProcessGroup(child);
      throw new Error("the bare fixture did not start");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pageUrl: `http://localhost:${port}/`,
    securedPageUrl: `http://localhost:${port}/secured`,
    postUrl: `http://localhost:${port}/api/echo`,
    relayUrl: `http://localhost:${port}/api/relay`,
    mirrorUrl: `http://localhost:${port}/api/mirror`,
    cpuMs: () => serverCpuMs(child.pid!),
    stop: () => stopProcessGroup(child),
  };
}

/**
 * Requests per second with 10 connections for 4 s (after a 2 s warm-up), the p50 latency, and the
 * server's CPU time per request (read from its CPU clock, `cpuMs`).
 */
export async function throughput(
  url: string,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  cpuMs: () => number,
): Promise<{ rps: number; p50: number; failed: number; cpu: number }> {
  const run = (duration: number) => autocannon({ url, connections: 10, duration, pipelining: 1, ...init });
  await run(2);
  const before = cpuMs();
  const r = await run(4);
  const cpu = (cpuMs() - before) / r.requests.total;
  return { rps: r.requests.average, p50: r.latency.p50, failed: r.errors + r.timeouts + r.non2xx, cpu };
}
