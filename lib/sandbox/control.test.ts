import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CONTROL,
  control,
  createPayment,
  credentials,
  getJson,
  getPage,
  initiate,
  linkAccount,
  payAtBank,
  paymentBody,
  openLink,
  postJson,
  startAuth,
  startSandbox,
  waitFor,
  type RunningSandbox,
} from "./test-helpers";

let s: RunningSandbox;
let c: ReturnType<typeof control>;

beforeAll(async () => {
  s = await startSandbox({ refundDelayMs: 60_000 });
  c = control(s);
});
afterAll(async () => {
  await s.sandbox.close();
});
beforeEach(async () => {
  await c.post("/reset");
});

const status = async (id: string) => (await getJson(`${s.api}/pis/payment/${id}/status`)).json;

/** A form post from the console page itself (same origin). */
async function consoleForm(action: string, fields: Record<string, string> = {}, origin = s.baseUrl) {
  const response = await fetch(`${s.baseUrl}${action}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location") };
}

describe("control API: payments", () => {
  it("lists payments newest first, filtered by endToEndId or clientId, with their status history", async () => {
    const first = await createPayment(s.api, {
      body: paymentBody({
        bankPaymentMethod: {
          endToEndId: "A-1",
          creditorName: "Shop",
          creditorAccount: { iban: "LT601010012345678901" },
        },
      }),
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createPayment(s.api);
    await payAtBank(second.confirmLink);
    const all = (await c.get("/payments")).json as { data: Record<string, unknown>[] };
    expect(all.data.map((p) => p.id)).toEqual([second.id, first.id]);
    expect(all.data[0]).toMatchObject({
      id: second.id,
      clientId: "sandbox-client-id",
      version: "v0.3",
      method: "bank",
      endToEndId: "1042",
      bankStatus: "ACSC",
      statusGroup: "completed",
      linkUsed: true,
      history: [
        { bankStatus: "STRD", statusGroup: "started", source: "api", at: expect.any(Number) },
        { bankStatus: "ACSC", statusGroup: "completed", source: "payer", at: expect.any(Number) },
      ],
      refunds: [],
    });
    expect(
      ((await c.get("/payments?endToEndId=A-1")).json as { data: { id: string }[] }).data.map((p) => p.id),
    ).toEqual([first.id]);
    expect(((await c.get("/payments?clientId=sandbox-nocard-id")).json as { data: unknown[] }).data).toEqual([]);
    expect((await c.get(`/payments/${first.id}`)).json).toMatchObject({ id: first.id, bankStatus: "STRD" });
    expect((await c.get("/payments/nope")).status).toBe(404);
  });

  it("forces a status, deriving the group and default reason codes, or taking them as given", async () => {
    const { id } = await createPayment(s.api);
    expect((await c.post(`/payments/${id}/status`, { bankStatus: "ACTC" })).json).toMatchObject({
      bankStatus: "ACTC",
      statusGroup: "pending",
    });
    expect(await status(id)).toEqual({ bankStatus: "ACTC", group: "pending" });
    await c.post(`/payments/${id}/status`, { bankStatus: "RJCT" });
    expect(await status(id)).toEqual({ bankStatus: "RJCT", group: "failed", error: { code: [21101] } });
    await c.post(`/payments/${id}/status`, { cardStatus: "hold", statusGroup: "completed", errorCodes: [] });
    expect(await status(id)).toEqual({ cardStatus: "hold", group: "completed" });
    const history = ((await c.get(`/payments/${id}`)).json as { history: { source: string }[] }).history;
    expect(history.map((h) => h.source)).toEqual(["api", "control", "control", "control"]);
  });

  it("refuses malformed force requests", async () => {
    const { id } = await createPayment(s.api);
    const cases: [unknown, string][] = [
      [{}, '"value" must contain exactly one of [bankStatus, cardStatus, hybridStatus]'],
      [
        { bankStatus: "ACSC", cardStatus: "paid" },
        '"value" must contain exactly one of [bankStatus, cardStatus, hybridStatus]',
      ],
      [{ bankStatus: "DONE" }, expect.stringMatching(/^"bankStatus" must be one of \[STRD, /)],
      [
        { hybridStatus: "created", statusGroup: "finished" },
        '"statusGroup" must be one of [started, pending, completed, failed]',
      ],
      [{ bankStatus: "ACSC", errorCodes: "21004" }, '"errorCodes" must be an array of integers'],
      ["[1]", '"value" must be of type object'],
    ];
    for (const [body, message] of cases) {
      expect(await c.post(`/payments/${id}/status`, body)).toEqual({
        status: 400,
        json: { error: { code: 10019, name: "InvalidRequest", description: "Invalid request." }, data: message },
      });
    }
    expect((await c.post(`/payments/${"0".repeat(40)}/status`, { bankStatus: "ACSC" })).status).toBe(404);
  });

  it("lists refunds and decides them", async () => {
    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND" });
    await payAtBank(confirmLink);
    await postJson(`${s.api}/pis/payment/${id}/refunds`, { amount: "1.00" });
    const [refund] = ((await c.get("/refunds")).json as { data: { id: number; statusGroup: string }[] }).data;
    expect(refund).toMatchObject({ paymentId: id, statusGroup: "started", currencyCode: "EUR" });
    expect((await c.post(`/refunds/${refund?.id ?? 0}/status`, { statusGroup: "completed" })).json).toMatchObject({
      statusGroup: "completed",
    });
    expect((await c.post(`/refunds/${refund?.id ?? 0}/status`, {})).status).toBe(400);
    expect((await c.post("/refunds/999/status", { statusGroup: "failed" })).status).toBe(404);
  });
});

describe("control API: account linkings", () => {
  const PSU = {
    "PSU-IP-Address": "192.0.2.10",
    "PSU-IP-Port": "443",
    "PSU-User-Agent": "Mozilla/5.0",
    "PSU-Http-Method": "GET",
    "PSU-Device-ID": "device-1",
  };
  const bearer = (token: string) => ({ ...credentials, ...PSU, Authorization: `Bearer ${token}` });
  const refresh = (refreshToken: string) =>
    postJson(`${s.api}/auth/token`, { grantType: "refreshToken", refreshToken });
  type LinkingJson = { id: string; revokedAt: number | null };

  it("lists linkings newest first", async () => {
    const first = await linkAccount(s.api, "payments", "SEB_LT_SAND");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await linkAccount(s.api, "accounts_basic,accounts_balances", "SWEDBANK_LT_SAND", "pending");
    const { status, json } = await c.get("/linkings");
    expect(status).toBe(200);
    const data = (json as { data: Record<string, unknown>[] }).data;
    expect(data.map((l) => l.id)).toEqual([second.authId, first.authId]);
    expect(data[0]).toEqual({
      id: second.authId,
      projectId: expect.any(String),
      clientId: "sandbox-client-id",
      bankId: "SWEDBANK_LT_SAND",
      user: "pending",
      scopes: ["accounts_basic", "accounts_balances", "accounts_details"],
      createdAt: expect.any(Number),
      expiresAt: (data[0]?.createdAt as number) + 90 * 24 * 3600 * 1000,
      revokedAt: null,
    });
  });

  it("revoke: every access and refresh token of the linking is refused like an expired one, from then on", async () => {
    const first = await linkAccount(s.api, "payments,accounts_basic");
    const rotated = (await refresh(first.refreshToken)).json as { accessToken: string; refreshToken: string };
    const other = await linkAccount(s.api, "payments,accounts_basic");
    expect((await initiate(s.api, { headers: { Authorization: `Bearer ${rotated.accessToken}` } })).status).toBe(200);
    expect((await getJson(`${s.api}/ais/accounts`, bearer(first.accessToken))).status).toBe(200);

    const before = ((await c.get("/clock")).json as { now: number }).now;
    const revoked = await c.post(`/linkings/${first.authId}/revoke`);
    expect(revoked).toMatchObject({ status: 200, json: { id: first.authId, revokedAt: expect.any(Number) } });
    const revokedAt = (revoked.json as LinkingJson).revokedAt ?? 0;
    expect(revokedAt).toBeGreaterThanOrEqual(before);

    const invalidToken = {
      status: 401,
      json: { error: { code: 10005, name: "InvalidToken", description: expect.any(String) }, data: {} },
    };
    for (const token of [first.accessToken, rotated.accessToken]) {
      expect(await initiate(s.api, { headers: { Authorization: `Bearer ${token}` } })).toEqual(invalidToken);
      expect(await getJson(`${s.api}/ais/accounts`, bearer(token))).toEqual(invalidToken);
      expect(await getJson(`${s.api}/auth/token/content`, bearer(token))).toEqual(invalidToken);
    }
    const usedRefresh = await refresh(first.refreshToken);
    const revokedRefresh = await refresh(rotated.refreshToken);
    expect(revokedRefresh).toEqual({
      status: 400,
      json: { error: { code: 10023, name: "InvalidGrant", description: expect.any(String) }, data: {} },
    });
    expect(revokedRefresh).toEqual(usedRefresh);

    // Another linking of the same payer and project is untouched.
    expect((await initiate(s.api, { headers: { Authorization: `Bearer ${other.accessToken}` } })).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);

    // Idempotent: the first revokedAt stays.
    await c.post("/clock", { advanceMs: 60_000 });
    expect((await c.post(`/linkings/${first.authId}/revoke`)).json).toMatchObject({ revokedAt });
    const listed = ((await c.get("/linkings")).json as { data: LinkingJson[] }).data;
    expect(listed.find((l) => l.id === first.authId)?.revokedAt).toBe(revokedAt);
    expect(listed.find((l) => l.id === other.authId)?.revokedAt).toBeNull();
  });

  it("an unused authorization code of a revoked linking is refused too", async () => {
    const { json } = await startAuth(s.api, "?scopes=payments&bankId=SEB_LT_SAND");
    const flow = await openLink(String(json.authorizationLink));
    await flow.post("login", { username: "test", password: "1234" });
    const code = new URL((await flow.post("allow")).location).searchParams.get("code");
    const [linking] = ((await c.get("/linkings")).json as { data: LinkingJson[] }).data;
    await c.post(`/linkings/${linking?.id ?? ""}/revoke`);
    expect((await postJson(`${s.api}/auth/token`, { grantType: "authorizationCode", code })).json).toMatchObject({
      error: { name: "InvalidGrant" },
    });
  });

  it("revoking an unknown linking is a 404", async () => {
    expect(await c.post("/linkings/nope/revoke")).toEqual({
      status: 404,
      json: { error: { code: 10004, name: "NotFound", description: "Linking not found." }, data: {} },
    });
    expect((await c.get("/linkings/nope")).status).toBe(404);
  });
});

describe("control API: faults", () => {
  it("error: matching calls answer 500 with the envelope, for `count` calls, and nothing is created", async () => {
    expect((await c.post("/faults", { mode: "error", paths: ["/pis/payment"], count: 2 })).json).toEqual({
      mode: "error",
      delayMs: 0,
      paths: ["/pis/payment"],
      remaining: 2,
    });
    for (let i = 0; i < 2; i++) {
      expect(await initiate(s.api)).toEqual({
        status: 500,
        json: { error: { code: 10000, name: "SystemError", description: "Internal error." }, data: {} },
      });
    }
    expect((await getJson(`${s.api}/auth/banks`)).status).toBe(200);
    expect(((await c.get("/payments")).json as { data: unknown[] }).data).toEqual([]);
    expect((await initiate(s.api)).status).toBe(200);
    expect((await c.get("/faults")).json).toEqual({ mode: "none", delayMs: 0, paths: [] });
  });

  it("slow: answers after delayMs; full paths match too", async () => {
    await c.post("/faults", { mode: "slow", delayMs: 300, paths: "/platform/v0.3/auth/countries" });
    const started = Date.now();
    expect((await getJson(`${s.api}/auth/countries`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const quick = Date.now();
    await getJson(`${s.api}/auth/banks`);
    expect(Date.now() - quick).toBeLessThan(250);
  });

  it("timeout: the call is processed but never answered, until the client gives up", async () => {
    await c.post("/faults", { mode: "timeout", count: 1 });
    const call = fetch(`${s.api}/pis/payment`, {
      method: "POST",
      headers: { ...credentials, "Content-Type": "application/json", "Redirect-URL": "https://shop.example/r" },
      body: JSON.stringify(paymentBody()),
      signal: AbortSignal.timeout(300),
    });
    await expect(call).rejects.toThrow();
    expect(((await c.get("/payments?endToEndId=1042")).json as { data: unknown[] }).data).toHaveLength(1);
    expect((await initiate(s.api)).status).toBe(200);
  });

  it("methods: a POST-only fault lets reads of the same path through without using up its count", async () => {
    const created = await initiate(s.api);
    const id = (created.json as { id: string }).id;
    await c.post("/faults", { mode: "error", paths: ["/pis/payment"], methods: ["POST"], count: 1 });
    expect((await getJson(`${s.api}/pis/payment/${id}/status`)).status).toBe(200);
    expect((await initiate(s.api)).status).toBe(500);
    expect((await initiate(s.api)).status).toBe(200);
  });

  it("refuses a malformed fault", async () => {
    expect((await c.post("/faults", { mode: "broken" })).json).toMatchObject({
      data: '"mode" must be one of [none, error, timeout, slow]',
    });
    expect((await c.post("/faults", { mode: "slow", delayMs: -1 })).json).toMatchObject({
      data: '"delayMs" must be a non-negative integer',
    });
    expect((await c.post("/faults", { mode: "error", paths: ["pis"] })).json).toMatchObject({
      data: expect.stringContaining('"paths"'),
    });
    expect((await c.post("/faults", { mode: "error", count: 0 })).json).toMatchObject({
      data: '"count" must be a positive integer',
    });
    expect((await c.post("/faults", { mode: "error", methods: ["post"] })).json).toMatchObject({
      data: expect.stringContaining('"methods"'),
    });
  });
});

describe("control API: clock, reset, safety", () => {
  it("travels forward in time, never back", async () => {
    const before = (await c.get("/clock")).json as { now: number; offsetMs: number };
    expect(before.offsetMs).toBe(0);
    const after = (await c.post("/clock", { advanceMs: 86_400_000 })).json as { now: number; offsetMs: number };
    expect(after.offsetMs).toBe(86_400_000);
    expect(after.now - before.now).toBeGreaterThanOrEqual(86_400_000);
    expect((await c.post("/clock", { advanceMs: -1 })).json).toMatchObject({
      data: '"advanceMs" must be a non-negative integer',
    });
  });

  it("reset forgets payments, deliveries, faults, the clock and added projects", async () => {
    s.sandbox.store.addProject({ id: "x", name: "X", clientId: "x-id", clientSecret: "x-secret", webhookSecret: "x" });
    await createPayment(s.api);
    await c.post("/faults", { mode: "error", paths: ["/nothing"] });
    await c.post("/clock", { advanceMs: 1000 });
    expect((await c.post("/reset")).json).toEqual({ reset: true });
    expect(((await c.get("/payments")).json as { data: unknown[] }).data).toEqual([]);
    expect(((await c.get("/webhooks")).json as { data: unknown[] }).data).toEqual([]);
    expect((await c.get("/faults")).json).toMatchObject({ mode: "none" });
    expect((await c.get("/clock")).json).toMatchObject({ offsetMs: 0 });
    expect((await getJson(`${s.api}/auth/banks`, { "Client-Id": "x-id", "Client-Secret": "x-secret" })).status).toBe(
      401,
    );
    expect(
      (
        await getJson(`${s.api}/auth/banks`, {
          "Client-Id": "sandbox-nocard-id",
          "Client-Secret": "sandbox-nocard-secret",
        })
      ).status,
    ).toBe(200);
  });

  it("refuses cross-site posts and unknown routes", async () => {
    const response = await fetch(`${s.baseUrl}/_sandbox/reset`, {
      method: "POST",
      headers: { Origin: "https://evil.example", ...CONTROL },
    });
    expect(response.status).toBe(400);
    expect((await c.get("/nothing")).status).toBe(404);
    expect((await getJson(`${s.baseUrl}/health`, {})).json).toEqual({ status: "ok" });
  });
});

describe("console", () => {
  it("lists payments with their status history, refunds and deliveries", async () => {
    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND" });
    await payAtBank(confirmLink, "reject");
    const { status: code, html, headers } = await getPage(s.baseUrl);
    expect(code).toBe(200);
    expect(headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html).toContain(`<code>${id}</code>`);
    expect(html).toContain("12.30 EUR");
    expect(html).toMatch(/STRD started \(api\)<\/li><li>[^<]* RJCT failed \(payer\)/);
    expect(html).toContain(`<label for="force-${id}" class="sr-only">`);
    expect(html).toContain('<h2 id="deliveries">Webhook deliveries</h2>');
  });

  it("forces a status, fails a refund, sets a fault, moves the clock and resets", async () => {
    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND" });
    expect(await consoleForm(`/console/payments/${id}/status`, { status: "bank:ACSC" })).toEqual({
      status: 303,
      location: "/",
    });
    expect(await status(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
    expect((await getPage(confirmLink)).status).toBe(410);

    await postJson(`${s.api}/pis/payment/${id}/refunds`, { amount: "1.00" });
    const refundId = String(((await c.get("/refunds")).json as { data: { id: number }[] }).data[0]?.id);
    expect((await getPage(s.baseUrl)).html).toContain(`Fail refund ${refundId}`);
    await consoleForm(`/console/refunds/${refundId}/status`, { statusGroup: "failed" });
    expect(
      ((await getJson(`${s.api}/pis/payment/${id}/refunds`)).json as { data: { statusGroup: string }[] }).data[0]
        ?.statusGroup,
    ).toBe("failed");

    await consoleForm("/console/faults", {
      mode: "error",
      delayMs: "0",
      paths: "/auth/countries, /auth/banks",
      count: "1",
    });
    expect((await c.get("/faults")).json).toEqual({
      mode: "error",
      delayMs: 0,
      paths: ["/auth/countries", "/auth/banks"],
      remaining: 1,
    });
    expect((await getJson(`${s.api}/auth/countries`)).status).toBe(500);

    await consoleForm("/console/clock", { advanceMs: "3600000" });
    expect((await c.get("/clock")).json).toMatchObject({ offsetMs: 3_600_000 });
    expect((await consoleForm(`/console/payments/${id}/status`, { status: "bank:NOPE" })).status).toBe(400);
    expect((await consoleForm("/console/reset", {}, "https://evil.example")).status).toBe(403);
    await consoleForm("/console/reset");
    expect(((await c.get("/payments")).json as { data: unknown[] }).data).toEqual([]);
  });
});

describe("DNS rebinding", () => {
  /** A request as a page on another name that now resolves to this machine sends it. */
  function asRebound(method: string, path: string, headers: Record<string, string> = {}) {
    const { port } = new URL(s.baseUrl);
    const foreign = `rebind.attacker.example:${port}`;
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${s.baseUrl}${path}`,
        { method, headers: { Host: foreign, Origin: `http://${foreign}`, ...headers } },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end(method === "POST" ? "status=bank%3AACSC" : undefined);
    });
  }

  it("refuses the console, the bank's pages and control calls under a host name it does not serve", async () => {
    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND" });
    const forced = await asRebound("POST", `/console/payments/${id}/status`, {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(forced.status).toBe(421);
    expect(await status(id)).toMatchObject({ group: "started" });
    const listed = await asRebound("GET", "/");
    expect([listed.status, listed.body.includes(id)]).toEqual([421, false]);
    expect((await asRebound("GET", new URL(confirmLink).pathname)).status).toBe(421);
    expect((await asRebound("GET", "/_sandbox/payments", CONTROL)).status).toBe(421);
    // The API is for servers, which reach it under whatever name their network gives it.
    const { port } = new URL(s.baseUrl);
    const api = await new Promise<number>((resolve, reject) => {
      http
        .get(`${s.api}/pis/payment/${id}/status`, { headers: { Host: `sandbox:${port}`, ...credentials } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on("error", reject);
    });
    expect(api).toBe(200);
  });
});

describe("persistence (SANDBOX_DATA_DIR)", () => {
  it("keeps payments, refunds and tokens across a restart, written atomically", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sandbox-state-"));
    try {
      const first = await startSandbox({ dataDir: dir });
      const { id, confirmLink } = await createPayment(first.api, { query: "?bankId=SEB_LT_SAND" });
      await payAtBank(confirmLink);
      await postJson(`${first.api}/pis/payment/${id}/refunds`, { amount: "2.00" });
      await waitFor(() => (existsSync(path.join(dir, "sandbox-state.json")) ? true : undefined));
      await first.sandbox.close();
      expect(readdirSync(dir)).toEqual(["sandbox-state.json"]);

      const second = await startSandbox({ dataDir: dir });
      try {
        expect((await getJson(`${second.api}/pis/payment/${id}/status`)).json).toEqual({
          bankStatus: "ACSC",
          group: "completed",
        });
        expect(
          ((await getJson(`${second.api}/pis/payment/${id}/refunds`)).json as { data: unknown[] }).data,
        ).toHaveLength(1);
        const next = await postJson(`${second.api}/pis/payment/${id}/refunds`, { amount: "1.00" });
        expect(next.json).toMatchObject({ id: 2 });
        // The link was used before the restart, and still is.
        expect((await getPage(confirmLink.replace(new URL(confirmLink).origin, second.baseUrl))).status).toBe(410);
      } finally {
        await second.sandbox.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("still moves on by the clock, after a restart, what was left open before it: a link expires, a refund completes", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sandbox-state-"));
    try {
      const first = await startSandbox({ dataDir: dir, refundDelayMs: 60_000 });
      const paid = await createPayment(first.api, { query: "?bankId=SEB_LT_SAND" });
      await payAtBank(paid.confirmLink);
      await postJson(`${first.api}/pis/payment/${paid.id}/refunds`, { amount: "2.00" });
      const left = await createPayment(first.api, { query: "?bankId=SEB_LT_SAND" });
      await first.sandbox.close();

      const second = await startSandbox({ dataDir: dir, refundDelayMs: 60_000 });
      try {
        expect((await getJson(`${second.api}/pis/payment/${left.id}/status`)).json).toMatchObject({ group: "started" });
        await control(second).post("/clock", { advanceMs: 8 * 86_400_000 });
        expect((await getJson(`${second.api}/pis/payment/${left.id}/status`)).json).toMatchObject({ group: "failed" });
        const refunds = (await getJson(`${second.api}/pis/payment/${paid.id}/refunds`)).json as {
          data: { statusGroup: string }[];
        };
        expect(refunds.data.map((r) => r.statusGroup)).toEqual(["completed"]);
      } finally {
        await second.sandbox.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps a revoked linking revoked across a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sandbox-state-"));
    try {
      const first = await startSandbox({ dataDir: dir });
      const token = await linkAccount(first.api);
      const revokedAt = ((await control(first).post(`/linkings/${token.authId}/revoke`)).json as { revokedAt: number })
        .revokedAt;
      await first.sandbox.close();

      const second = await startSandbox({ dataDir: dir });
      try {
        expect(((await control(second).get("/linkings")).json as { data: unknown[] }).data).toEqual([
          expect.objectContaining({ id: token.authId, revokedAt }),
        ]);
        expect((await initiate(second.api, { headers: { Authorization: `Bearer ${token.accessToken}` } })).status).toBe(
          401,
        );
        expect(
          (await postJson(`${second.api}/auth/token`, { grantType: "refreshToken", refreshToken: token.refreshToken }))
            .status,
        ).toBe(400);
      } finally {
        await second.sandbox.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the control API's secret", () => {
  it("refuses a control call without the sandbox's control secret, or with a wrong one, and changes nothing", async () => {
    const offset = async () =>
      ((await getJson(`${s.baseUrl}/_sandbox/clock`, CONTROL)).json as { offsetMs: number }).offsetMs;
    const before = await offset();
    const wrong: Record<string, string>[] = [{}, { "X-Sandbox-Secret": "guess" }];
    for (const headers of wrong) {
      const res = await fetch(`${s.baseUrl}/_sandbox/clock`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ advanceMs: 3_600_000 }),
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { name: string } }).error.name).toBe("Unauthorized");
      expect((await fetch(`${s.baseUrl}/_sandbox/payments`, { headers })).status).toBe(401);
    }
    expect(await offset()).toBe(before);
  });
});
