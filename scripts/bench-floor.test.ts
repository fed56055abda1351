import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commonSecurityHeaders } from "@/lib/http/security-headers";
import { request } from "./bench-app";
import { startFloor, type Floor } from "./bench-floor";

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });

describe("the bench's bare route (the framework's floor)", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "bench-floor-"));
  const dataDir = path.join(scratch, "pglite");
  let floor: Floor | undefined;
  afterAll(async () => {
    await floor?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  // The fixture lives inside the app's tree, and the build took the app's instrumentation.ts for
  // it: the "bare" route ran the app's start-up (its database, background work) and held the
  // developer's embedded database, so `npm run bench` failed beside a running `npm start`.
  it("answers without starting any of the app's own work", async () => {
    const previous = process.env.PGLITE_DIR;
    process.env.PGLITE_DIR = dataDir;
    try {
      floor = await startFloor(await freePort());
    } finally {
      process.env.PGLITE_DIR = previous;
    }
    const answer = await request(floor.url);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ ok: true });
    // Lighthouse's floor for a page: Next's own, with nothing of ours.
    const page = await request(floor.pageUrl);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain("<h1>A bare Next page</h1>");
    expect(page.headers["cross-origin-opener-policy"]).toBeUndefined();
    // The same page with the headers every page of ours sends, and no others.
    const secured = await request(floor.securedPageUrl);
    expect(secured.body.toString()).toContain("<h1>A bare Next page</h1>");
    for (const [name, value] of Object.entries(commonSecurityHeaders("http://localhost:3000")))
      expect(secured.headers[name.toLowerCase()], name).toBe(value);
    const { PAGE_SECURITY_HEADERS } = (await import(
      /* @vite-ignore */ new URL("./bench-fixture/next.config.mjs", import.meta.url).href
    )) as { PAGE_SECURITY_HEADERS: Record<string, string> };
    expect(PAGE_SECURITY_HEADERS).toEqual(commonSecurityHeaders("http://localhost:3000"));
    await new Promise((r) => setTimeout(r, 500));
    expect(existsSync(dataDir)).toBe(false);
  }, 240_000);

  // The bench divides each route's CPU per request by this floor's: a reading of the wrong
  // process, or of none, would stay put.
  it("answers a POST's JSON body, and counts the CPU time its server spends on requests", async () => {
    floor ??= await startFloor(await freePort());
    const before = floor.cpuMs();
    for (let i = 0; i < 300; i++) {
      const answer = await request(floor.postUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: `P-${i}` }),
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString())).toEqual({ ok: true, id: `P-${i}` });
    }
    expect(floor.cpuMs()).toBeGreaterThan(before);
  }, 240_000);
});
