import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { loadEnv } from "../lib/env";
import { REAL_PROVIDER_ENV } from "../lib/env-fixtures";
import { KEEP_ALIVE_MS, loadStartSettings, passLines, processesFor } from "./start-plan";

describe("npm start", () => {
  it("starts the sandbox provider and the demo merchant site beside the app when no provider is configured", () => {
    expect(processesFor(loadEnv({}), false).map((p) => p.name)).toEqual([
      "sandbox provider",
      "next",
      "demo merchant site",
    ]);
  });

  it("does not start the sandbox when PIS_BASE_URL points at a real provider", () => {
    const plan = processesFor(loadEnv(REAL_PROVIDER_ENV), false);
    expect(plan.map((p) => p.name)).toEqual(["next"]);
    expect(plan.flatMap((p) => p.args).join(" ")).not.toContain("sandbox");
  });

  it("serves on the configured port, keeping idle connections longer than a load balancer does", () => {
    expect(processesFor(loadEnv({ PORT: "4000" }), false).find((p) => p.name === "next")!.args).toEqual([
      "node_modules/next/dist/bin/next",
      "start",
      "--keepAliveTimeout",
      "65000",
      "-p",
      "4000",
    ]);
    // The image's standalone server, too.
    expect(readFileSync(path.join(import.meta.dirname, "..", "Dockerfile"), "utf8")).toContain(
      `KEEP_ALIVE_TIMEOUT=${KEEP_ALIVE_MS}`,
    );
  });
});

describe("npm start's output", () => {
  it("leaves out Next's advice to run server.js instead of next start (it would drop the sandbox), and nothing else", async () => {
    const next = processesFor(loadEnv({}), false).find((p) => p.name === "next")!;
    const input = new PassThrough();
    const output = new PassThrough();
    passLines(input, output, next.dropFromStderr!);
    const lines = [
      "▲ Next.js 16.4.6",
      '⚠ "next start" does not work with "output: standalone" configuration. Use "node .next/standalone/server.js" instead.',
      '\u001b[33m\u001b[1m⚠\u001b[22m\u001b[39m "next start" does not work with "output: standalone" configuration. Use "node .next/standalone/server.js" instead.',
      "Error: something else went wrong",
      "    at stack (file.js:1:1)",
    ];
    input.end(lines.join("\n") + "\n");
    await new Promise((resolve) => input.on("end", resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(String(output.read())).toBe(`${[lines[0], lines[3], lines[4]].join("\n")}\n`);
  });
});

describe("npm start's settings", () => {
  const saved = { ...process.env };
  const dirs: string[] = [];
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const folderWith = (files: Record<string, Record<string, string>>) => {
    const dir = mkdtempSync(path.join(tmpdir(), "start-env-"));
    dirs.push(dir);
    for (const [name, settings] of Object.entries(files))
      writeFileSync(
        path.join(dir, name),
        Object.entries(settings)
          .map(([k, v]) => `${k}="${v}"`)
          .join("\n"),
      );
    return dir;
  };

  it("are read from .env as the app reads them: a provider there does not start the sandbox", () => {
    const settings = loadStartSettings(folderWith({ ".env": REAL_PROVIDER_ENV }), false);
    expect(settings.sandbox).toBe(false);
    expect(processesFor(settings, false).map((p) => p.name)).toEqual(["next"]);
  });

  it("take the environment over the mode's file over .env, as Next does", () => {
    expect(process.env.NODE_ENV).toBe("test"); // so .env.test is the mode's file
    const dir = folderWith({
      ".env": { PGLITE_DIR: ".data/from-file", SANDBOX_PORT: "4001", EMBED_DEMO_PORT: "4002" },
      ".env.test": { SANDBOX_PORT: "4101" },
    });
    // PGLITE_DIR is set in this test run's environment (scripts/vitest.config.ts).
    expect(loadStartSettings(dir, false)).toMatchObject({
      pgliteDir: "memory://",
      sandboxPort: 4101,
      embedDemoPort: 4002,
    });
  });
});
