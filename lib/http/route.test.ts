import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { CheckoutError } from "../checkout/errors";
import { databaseAwayHint, markDatabaseBack } from "../db/away";
import { logTo } from "../log/logger";
import { otherMethods, route } from "./route";
import { inviteStaff } from "../staff/accounts";
import type { StaffRole } from "../staff/roles";
import { SESSION_COOKIE, endSession, openSession } from "../staff/sessions";
import { closedPort } from "../test-helpers/closed-port";

/** Log lines written from here on, parsed. */
function captureLog(): () => Record<string, unknown>[] {
  const raw: string[] = [];
  logTo({ write: (line: string) => void raw.push(line) });
  return () => raw.map((l) => JSON.parse(l) as Record<string, unknown>);
}

const ctx = (params: Record<string, string> = {}) => ({ params: Promise.resolve(params) });
const post = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://app.test/api/x", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", ...headers },
  });

const handler = route(
  { body: z.object({ amount: z.string(), count: z.number().int() }), apiKey: "checkouts:write" },
  async ({ body }) => ({ echoed: body }),
);

describe("route wrapper", () => {
  it("parses the body and answers JSON", async () => {
    const res = await handler(post('{"amount":"1.00","count":2}', { Authorization: "Bearer dev-merchant-key" }), ctx());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echoed: { amount: "1.00", count: 2 } });
  });

  it("refuses a missing or wrong API key with 401", async () => {
    expect((await handler(post("{}"), ctx())).status).toBe(401);
    expect((await handler(post("{}", { Authorization: "Bearer nope" }), ctx())).status).toBe(401);
  });

  it("answers bad input with 400 problem+json naming the field", async () => {
    const res = await handler(post('{"amount":1,"count":"two"}', { Authorization: "Bearer dev-merchant-key" }), ctx());
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.json();
    expect(body.code).toBe("invalid_request");
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["amount", "count"]);
  });

  it("refuses a query field given twice, naming it, rather than keeping one of the two", async () => {
    const listing = route({ query: z.strictObject({ status: z.string().optional() }) }, async ({ query }) => query);
    const get = (search: string) => listing(new Request(`http://app.test/api/x?${search}`), ctx());
    expect(await (await get("status=paid")).json()).toEqual({ status: "paid" });
    const res = await get("status=paid&status=open");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "invalid_request",
      errors: [{ path: "status", message: "must be given once" }],
    });
  });

  it("answers a body that is not JSON with 400, not 500", async () => {
    const res = await handler(post("{amount:", { Authorization: "Bearer dev-merchant-key" }), ctx());
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("invalid_json");
  });

  it("turns a domain refusal into its code's status, title and retry, with the detail of this refusal", async () => {
    const h = route({}, async () => {
      throw new CheckoutError("payment_in_progress", { detail: "Finish it at your bank." });
    });
    const res = await h(new Request("http://app.test/x"), ctx());
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toEqual({
      type: "about:blank#payment_in_progress",
      title: "A payment for this order is already in progress.",
      status: 409,
      code: "payment_in_progress",
      retry: true,
      detail: "Finish it at your bank.",
    });
  });

  it("hides an unexpected error behind a 500 without details", async () => {
    const h = route({}, async () => {
      throw new Error("database password is hunter2");
    });
    const original = console.error;
    console.error = () => {};
    const res = await h(new Request("http://app.test/x"), ctx()).finally(() => (console.error = original));
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain("hunter2");
  });

  it("answers 503 service_unavailable with retry and Retry-After while the database is down, and logs a warning", async () => {
    // The error the app's own query throws against a Postgres that is down (nothing on its port).
    const port = await closedPort();
    const { openDb } = await import("../db/client");
    const down = await openDb({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres` }).catch(
      (e: unknown) => e,
    );
    const h = route({}, async () => {
      throw down;
    });
    const lines = captureLog();
    const res = await h(new Request("http://app.test/api/checkouts", { method: "POST" }), ctx());
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("retry-after")).toBe("2");
    expect(await res.json()).toMatchObject({ code: "service_unavailable", retry: true, status: 503 });
    const logged = lines().find((l) => l.msg === "database unavailable")!;
    expect(logged).toMatchObject({ level: "warn", reqId: res.headers.get("x-request-id"), route: "/api/checkouts" });
    // and the instance's pages answer 503 at once for the next seconds (proxy.ts)
    expect(databaseAwayHint()).toBe(true);
    markDatabaseBack();
  });

  it("logs a failed query without its parameters (an IBAN, an e-mail address), under the request's id", async () => {
    const { DrizzleQueryError } = await import("drizzle-orm/errors");
    const h = route({}, async () => {
      throw new DrizzleQueryError(
        "insert into checkouts (creditor_iban, email) values ($1, $2)",
        ["LT601010012345678901", "jonas@example.lt"],
        new Error("connection reset"),
      );
    });
    const lines = captureLog();
    const res = await h(new Request("http://app.test/api/checkouts/co_abc123/payments", { method: "POST" }), ctx());
    expect(res.status).toBe(500);
    const failed = lines().find((l) => l.msg === "request failed")!;
    expect(failed).toMatchObject({
      level: "error",
      reqId: res.headers.get("x-request-id"),
      route: "/api/checkouts/{id}/payments",
    });
    expect(JSON.stringify(failed)).toContain("insert into checkouts");
    expect(JSON.stringify(failed)).toContain("connection reset");
    expect(JSON.stringify(lines())).not.toMatch(/LT601010012345678901|jonas@example/);
  });

  it("logs what the provider answered when it passes on a refusal, and answers the caller without it", async () => {
    const { PisError } = await import("../pis");
    const { CheckoutError } = await import("../checkout/errors");
    const cause = new PisError({
      kind: "http",
      httpStatus: 400,
      name: "InvalidCreditorAccount",
      operation: "initiatePayment",
    });
    const h = route({}, async () => {
      throw new CheckoutError("payment_refused", { detail: "The payment service refused this payment." }, { cause });
    });
    const lines = captureLog();
    const res = await h(new Request("http://app.test/api/checkouts/co_abc123/payments", { method: "POST" }), ctx());
    expect(res.status).toBe(422);
    expect(await res.text()).not.toContain("InvalidCreditorAccount");
    const logged = lines().find((l) => l.msg === "provider answer")!;
    expect(logged).toMatchObject({ level: "warn", code: "payment_refused", reqId: res.headers.get("x-request-id") });
    expect(JSON.stringify(logged)).toContain("InvalidCreditorAccount");
  });

  it("logs one JSON line per request: id, route (no ids in it), status and duration", async () => {
    const lines = captureLog();
    const res = await handler(
      post('{"amount":"1.00","count":2}', { Authorization: "Bearer dev-merchant-key", "X-Request-Id": "lb-req-00042" }),
      ctx(),
    );
    expect(res.headers.get("x-request-id")).toBe("lb-req-00042");
    const [line] = lines().filter((l) => l.msg === "request");
    expect(line).toMatchObject({ level: "info", reqId: "lb-req-00042", method: "POST", route: "/api/x", status: 200 });
    expect(typeof line!.durationMs).toBe("number");
    expect(JSON.stringify(line)).not.toContain("1.00"); // never the body
  });
});

describe("methods a route does not take", () => {
  it("are answered 405 problem+json with Allow, and OPTIONS 204 with the same Allow", async () => {
    const { PUT, OPTIONS } = otherMethods("GET", "POST");
    const refused = await PUT(new Request("http://app.test/api/x", { method: "PUT" }), ctx());
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    expect(await refused.json()).toMatchObject({ code: "method_not_allowed", retry: false });
    const options = await OPTIONS(new Request("http://app.test/api/x", { method: "OPTIONS" }), ctx());
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
  });
});

describe("route wrapper for the back office's JSON", () => {
  const staffOnly = route({ staff: "checkouts.view" }, async () => ({ secret: "list" }));
  const adminOnly = route({ staff: "staff.manage" }, async () => ({ secret: "people" }));
  const get = (cookie?: string) =>
    new Request("http://app.test/api/backoffice/x", { headers: cookie ? { cookie } : {} });
  const staffCookie = async (role: StaffRole) => {
    const { db } = await (await import("../checkout/app-context")).appContext();
    const { member } = await inviteStaff(
      { db, actor: { kind: "system", label: "test" } },
      { email: `${role}-${Math.random()}@shop.example`, role },
    );
    return `${SESSION_COOKIE}=${await openSession(db, member.id)}`;
  };

  it("answers 401 without an open staff session, and the data with one", async () => {
    const { appContext } = await import("../checkout/app-context");
    const { db } = await appContext();
    expect((await staffOnly(get(), ctx())).status).toBe(401);
    expect((await staffOnly(get(`${SESSION_COOKIE}=${"A".repeat(43)}`), ctx())).status).toBe(401);
    const cookie = await staffCookie("viewer");
    const res = await staffOnly(get(`other=1; ${cookie}`), ctx());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ secret: "list" });
    await endSession(db, cookie.split("=")[1]);
    expect((await staffOnly(get(cookie), ctx())).status).toBe(401);
  });

  it("answers 403 role_forbidden to a role the table does not allow, and the data to one it does", async () => {
    const viewer = await adminOnly(get(await staffCookie("viewer")), ctx());
    expect(viewer.status).toBe(403);
    expect(await viewer.json()).toMatchObject({ code: "role_forbidden" });
    expect((await adminOnly(get(await staffCookie("admin")), ctx())).status).toBe(200);
  });
});

describe("route wrapper's bench headers", () => {
  const plain = route({}, async () => ({ ok: true }));
  const get = () => new Request("http://app.test/api/x");
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("sends no timing and no round-trip count in production", async () => {
    const res = await plain(get(), ctx());
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toBeNull();
    expect(res.headers.get("x-db-round-trips")).toBeNull();
  });

  // `npm run load` reads the handler's time without paying for the round-trip count.
  it("answers the handler's time under BENCH_SERVER_TIMING, and nothing more", async () => {
    vi.stubEnv("BENCH_SERVER_TIMING", "1");
    vi.resetModules();
    const { route: timed } = await import("./route");
    const res = await timed({}, async () => ({ ok: true }))(get(), ctx());
    expect(res.headers.get("server-timing")).toMatch(/^handler;dur=\d+\.\d$/);
    expect(res.headers.get("x-db-round-trips")).toBeNull();
  });
});
