import { spawn } from "node:child_process";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** The sandbox as `npm start` runs it: its own process, with the settings of the environment. */
async function runServer(env: Record<string, string>): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "server.ts")], {
    env: { ...process.env, SANDBOX_DATA_DIR: "", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port }, () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

describe("the sandbox server", () => {
  it("listens on this machine only by default", { timeout: 30_000 }, async () => {
    const { url, stop } = await runServer({ SANDBOX_PORT: "0" });
    try {
      const port = Number(new URL(url).port);
      expect(new URL(url).hostname).toBe("127.0.0.1");
      expect(await reachable("127.0.0.1", port)).toBe(true);
      // Another interface of this machine, as a neighbour on the network would reach it.
      const outside = Object.values(os.networkInterfaces())
        .flat()
        .find((a) => a && !a.internal && a.family === "IPv4");
      if (outside) expect(await reachable(outside.address, port)).toBe(false);
    } finally {
      stop();
    }
  });
});
