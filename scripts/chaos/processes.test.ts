import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { killGroup, spawnGroup, waitHealthy } from "./processes";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("the processes a rig starts", () => {
  it("keeps every line a process writes, named, and kill takes its children too (nothing left holding a port)", async () => {
    // A parent that starts a child of its own, as `npm start` or tsx's CLI do, and says so.
    const script = `
      const { spawn } = require("node:child_process");
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      console.log("child " + child.pid);
      console.error("to stderr");
      // One line in two writes, apart in time: still one line.
      process.stdout.write("half a ");
      setTimeout(() => process.stdout.write("line\\n"), 200);
      setInterval(() => {}, 1000);`;
    const parent = spawnGroup(["-e", script], { PATH: process.env.PATH }, "rig");
    await expect.poll(() => parent.tail.length, { timeout: 10_000 }).toBe(3);
    expect(parent.tail).toContain("rig: to stderr");
    expect(parent.tail).toContain("rig: half a line");
    const childPid = Number(/^rig: child (\d+)$/.exec(parent.tail.find((l) => l.includes("child"))!)![1]);
    expect(alive(childPid)).toBe(true);

    killGroup(parent, "SIGKILL");
    await expect.poll(() => alive(parent.pid!) || alive(childPid), { timeout: 5000 }).toBe(false);
    killGroup(parent, "SIGKILL"); // already gone: no throw
  });

  it("waits until an address answers 2xx, and gives up with the address when it never does", async () => {
    let calls = 0;
    const server = createServer((_req, res) => res.writeHead(++calls < 3 ? 503 : 200).end());
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
    try {
      await expect(waitHealthy(url, 5000)).resolves.toBeGreaterThanOrEqual(0);
      expect(calls).toBe(3);
    } finally {
      server.close();
    }
    await expect(waitHealthy(url, 300)).rejects.toThrow(`${url} not healthy after 300 ms`);
  });
});
