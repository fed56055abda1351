/**
 * The processes a rig starts (`npm run chaos`, `npm run deploy:rehearse`): each in its own process
 * group with its output kept, and a wait until it answers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** A process's environment, whole: nothing of this shell's is passed on unless put in. */
export type Env = Record<string, string | undefined>;

/** A started process, with every line it wrote (stdout and stderr), each prefixed with its name. */
export type Spawned = ChildProcess & { tail: string[] };

/**
 * Starts `args` under Node (or `o.command`) in its own process group, so kill -9 takes the whole
 * process and cleanup leaves nothing behind.
 */
export function spawnGroup(
  args: string[],
  env: Env,
  name: string,
  o: { command?: string; cwd?: string } = {},
): Spawned {
  const child = spawn(o.command ?? process.execPath, args, {
    cwd: o.cwd ?? root,
    // Next's types require NODE_ENV of every environment; a rig's processes set their own.
    env: env as NodeJS.ProcessEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  }) as Spawned;
  const tail: string[] = [];
  // A chunk of output may end inside a line: its start waits for the rest, so a line is one entry.
  const keep = (stream: NodeJS.ReadableStream) => {
    let partial = "";
    const push = (lines: string[]) => tail.push(...lines.filter(Boolean).map((l) => `${name}: ${l}`));
    stream.setEncoding("utf8"); // nor a character cut in two
    stream.on("data", (c: string) => {
      const lines = (partial + c).split("\n");
      partial = lines.pop()!;
      push(lines);
    });
    stream.on("end", () => push([partial]));
  };
  keep(child.stdout!);
  keep(child.stderr!);
  child.tail = tail;
  return child;
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `url` answers 2xx; returns how long that took. */
export async function waitHealthy(url: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return Date.now() - started;
    await sleep(100);
  }
  throw new Error(`${url} not healthy after ${timeoutMs} ms`);
}
