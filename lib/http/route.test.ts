import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CheckoutError } from "../checkout/errors";
import { env } from "../env";
import { route } from "./route";
import { SESSION_COOKIE, endSession, openSession } from "./staff-session";

const ctx = (params: Record<string, string> = {}) => ({ params: Promise.resolve(params) });
const post = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://app.test/api/x", { method: "POST", body, headers: { "Content-Type": "application/json", ...headers } });

const handler = route({ body: z.object({ amount: z.string(), count: z.number().int() }), bearer: () => "secret-key" }, async ({ body }) => ({ echoed: body }));

describe("route wrapper", () => {
  it("parses the body and answers JSON", async () => {
    const res = await handler(post('{"amount":"1.00","count":2}', { Authorization: "Bearer secret-key" }), ctx());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echoed: { amount: "1.00", count: 2 } });
  });

  it("refuses a missing or wrong API key with 401", async () => {
    expect((await handler(post("{}"), ctx())).status).toBe(401);
    expect((await handler(post("{}", { Authorization: "Bearer nope" }), ctx())).status).toBe(401);
  });

  it("answers bad input with 400 problem+json naming the field", async () => {
    const res = await handler(post('{"amount":1,"count":"two"}', { Authorization: "Bearer secret-key" }), ctx());
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.json();
    expect(body.code).toBe("invalid_request");
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["amount", "count"]);
  });

  it("answers a body that is not JSON with 400, not 500", async () => {
    const res = await handler(post("{amount:", { Authorization: "Bearer secret-key" }), ctx());
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("invalid_json");
  });

  it("turns a domain refusal into its status and code", async () => {
    const h = route({}, async () => {
      throw new CheckoutError(409, "already_paid", "This order is already paid.");
    });
    const res = await h(new Request("http://app.test/x"), ctx());
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "already_paid", title: "This order is already paid." });
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

  it("logs a failed query without its parameters (an IBAN, a payer's name)", async () => {
    const { DrizzleQueryError } = await import("drizzle-orm/errors");
    const h = route({}, async () => {
      throw new DrizzleQueryError("insert into checkouts (creditor_iban, email) values ($1, $2)", ["LT601010012345678901", "jonas@example.lt"], new Error("connection reset"));
    });
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args.map((a) => (a instanceof Error ? `${a.stack} ${String((a.cause as Error)?.message)}` : String(a))).join(" "));
    const res = await h(new Request("http://app.test/x"), ctx()).finally(() => (console.error = original));
    expect(res.status).toBe(500);
    expect(logged.join("\n")).toContain("insert into checkouts");
    expect(logged.join("\n")).toContain("connection reset");
    expect(logged.join("\n")).not.toMatch(/LT601010012345678901|jonas@example/);
  });
});

describe("route wrapper for the back office's JSON", () => {
  const staffOnly = route({ staff: true }, async () => ({ secret: "list" }));
  const get = (cookie?: string) => new Request("http://app.test/api/backoffice/x", { headers: cookie ? { cookie } : {} });

  it("answers 401 without an open staff session, and the data with one", async () => {
    const { appContext } = await import("../checkout/app-context");
    const { db } = await appContext();
    expect((await staffOnly(get(), ctx())).status).toBe(401);
    expect((await staffOnly(get(`${SESSION_COOKIE}=${"A".repeat(43)}`), ctx())).status).toBe(401);
    const token = await openSession(db, env().backofficePassword);
    const res = await staffOnly(get(`other=1; ${SESSION_COOKIE}=${token}`), ctx());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ secret: "list" });
    await endSession(db, token);
    expect((await staffOnly(get(`${SESSION_COOKIE}=${token}`), ctx())).status).toBe(401);
  });
});
