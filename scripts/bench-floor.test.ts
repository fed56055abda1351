import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
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

  // A payment start's overhead is split at this relay: what passes the provider's headers and body
  // on and its answer back is the framework's part, the rest ours. A relay that dropped a header
  // would be refused by the real sandbox and fail the bench; one that reached any host would make
  // the fixture an open relay while the bench runs.
  it("relays a provider call's headers and body to a local provider and answers its reply", async () => {
    floor ??= await startFloor(await freePort());
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    const provider = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(201, { "Content-Type": "application/json" }).end('{"id":"P-1","confirmLink":"x"}');
      });
    });
    const providerPort = await freePort();
    await new Promise<void>((resolve) => provider.listen(providerPort, "127.0.0.1", resolve));
    try {
      const headers = {
        "Content-Type": "application/json",
        "Client-Id": "id-1",
        "Client-Secret": "secret-1",
        "Redirect-URL": "http://localhost:3000/return",
        "Webhook-URL": "http://localhost:3000/hook",
      };
      const answer = await request(floor.relayUrl, {
        method: "POST",
        headers: { ...headers, "X-Relay-To": `http://127.0.0.1:${providerPort}/pis/payment?bankId=B` },
        body: '{"amount":"12.50"}',
      });
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body.toString())).toEqual({ id: "P-1", confirmLink: "x" });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.body).toBe('{"amount":"12.50"}');
      for (const [name, value] of Object.entries(headers))
        expect(seen[0]!.headers[name.toLowerCase()], name).toBe(value);

      const elsewhere = await request(floor.relayUrl, {
        method: "POST",
        headers: { ...headers, "X-Relay-To": "http://example.com/pis/payment" },
        body: "{}",
      });
      expect(elsewhere.status).toBe(400);
      const nowhere = await request(floor.relayUrl, { method: "POST", headers, body: "{}" });
      expect(nowhere.status).toBe(400);
      expect(seen).toHaveLength(1);
    } finally {
      await new Promise((resolve) => provider.close(resolve));
    }
  }, 240_000);

  // The bank list is measured against this mirror too: an answer that came back with other bytes or
  // headers than it was given would measure the framework on another answer.
  it("answers what it was given, body and headers", async () => {
    floor ??= await startFloor(await freePort());
    const headers = {
      "cache-control": "public, max-age=300, s-maxage=300, stale-while-revalidate=600",
      "content-type": "application/json",
      etag: '"abc"',
      "x-frame-options": "DENY",
    };
    const body = JSON.stringify({ data: [{ id: "BANK_1", name: "Bank" }] });
    const put = await request(floor.mirrorUrl, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ headers, body }),
    });
    expect(put.status).toBe(204);
    const answer = await request(floor.mirrorUrl);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe(body);
    for (const [name, value] of Object.entries(headers)) expect(answer.headers[name], name).toBe(value);
  }, 240_000);
});
