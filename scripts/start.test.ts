import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closedPort } from "../lib/test-helpers/closed-port";

const root = path.resolve(import.meta.dirname, "..");

describe("npm start with a database it cannot reach", () => {
  it("stops with one line naming DATABASE_URL and what failed, without its password or a stack trace", async () => {
    const port = await closedPort();
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: root,
      encoding: "utf8",
      timeout: 30_000,
      env: {
        ...process.env,
        DATABASE_URL: `postgres://checkout:hunter2-secret@127.0.0.1:${port}/checkout`,
        PIS_BASE_URL: "",
        APP_URL: "",
      },
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^DATABASE_URL \(postgres:\/\/checkout:\*\*\*\*@127\.0\.0\.1:\d+\/checkout\): .*ECONNREFUSED/,
    );
    expect(run.stderr + run.stdout).not.toContain("hunter2");
  });
});
