import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BankCheckout } from "./client.ts";
import { BankCheckoutError } from "./errors.ts";
import { backoffMs, Transport } from "./http.ts";
import type { CreateCheckoutParams } from "./types.ts";

/** A stand-in for the app: each request is answered by the next handler queued. */
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let server: Server;
let baseUrl: string;
let handlers: Handler[] = [];
let seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const handler = handlers.shift() ?? ((_, r) => r.writeHead(599).end());
      handler(req, res, body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  handlers = [];
  seen = [];
});

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    res
      .writeHead(status, {
        "Content-Type": status < 300 ? "application/json" : "application/problem+json",
        ...headers,
      })
      .end(JSON.stringify(body));
const problem = (status: number, code: string, retry: boolean, more: object = {}) =>
  json(status, { type: `about:blank#${code}`, title: code, status, code, retry, ...more });
const hangUp: Handler = (req) => req.socket.destroy();
const silent: Handler = () => {};

const created = { id: "co_1", url: "http://x/checkout/co_1", status: "open", expiresAt: "2026-01-01T00:00:00.000Z" };
const input: CreateCheckoutParams = {
  amount: "12.50",
  currency: "EUR",
  description: "Order 42",
  reference: "order-42",
  returnUrl: "https://shop.example/thanks",
};
const client = (over: { timeoutMs?: number; maxRetries?: number } = {}) =>
  new BankCheckout({ baseUrl, apiKey: "key-1", ...over });

describe("every call", () => {
  it("sends the key as Bearer, and each POST a random Idempotency-Key", async () => {
    handlers.push(json(200, created), json(200, created));
    await client().checkouts.create(input);
    await client().checkouts.create(input);
    expect(seen[0]!.headers.authorization).toBe("Bearer key-1");
    expect(seen[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen[0]!.body)).toEqual(input);
    const keys = seen.map((s) => s.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it("takes the caller's Idempotency-Key instead", async () => {
    handlers.push(json(200, created));
    await client().checkouts.create(input, { idempotencyKey: "order-42-try-1" });
    expect(seen[0]!.headers["idempotency-key"]).toBe("order-42-try-1");
  });

  it("sends no Idempotency-Key with a GET", async () => {
    handlers.push(json(200, { items: [], page: 1 }));
    await client().checkouts.list({ q: "order 42", page: 2 });
    expect(seen[0]!.url).toBe("/api/checkouts?q=order+42&page=2");
    expect(seen[0]!.headers["idempotency-key"]).toBeUndefined();
  });
});

describe("retries", () => {
  it("repeat a POST answered retry: true, under the same Idempotency-Key", async () => {
    handlers.push(problem(500, "internal_error", true), problem(502, "provider_error", true), json(200, created));
    await expect(client().checkouts.create(input)).resolves.toEqual(created);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.headers["idempotency-key"])).size).toBe(1);
  });

  it("repeat a request never answered (the connection dropped)", async () => {
    handlers.push(hangUp, json(200, created));
    await expect(client().checkouts.get("co_1")).resolves.toEqual(created);
    expect(seen).toHaveLength(2);
  });

  it("repeat a gateway's 503 that is not our problem JSON: the app did not answer", async () => {
    handlers.push((_req, res) => res.writeHead(503, { "Content-Type": "text/html" }).end("<h1>down</h1>"));
    handlers.push(json(200, created));
    await expect(client().checkouts.get("co_1")).resolves.toEqual(created);
  });

  it("never repeat a POST the app would not answer the same twice", async () => {
    handlers.push(hangUp, json(200, created));
    const transport = new Transport({ baseUrl, apiKey: "key-1" });
    await expect(transport.request({ method: "POST", path: "/api/something", body: {} })).rejects.toMatchObject({
      code: "network_error",
      retry: true,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers["idempotency-key"]).toBeTruthy();
  });

  it("never repeat an answer that says retry: false", async () => {
    handlers.push(problem(422, "idempotency_key_reused", false), json(200, created));
    const error = await client()
      .checkouts.create(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BankCheckoutError);
    expect(error).toMatchObject({ code: "idempotency_key_reused", status: 422, retry: false });
    expect(seen).toHaveLength(1);
  });

  it("never repeat another answer that is not ours", async () => {
    handlers.push((_req, res) => res.writeHead(400, { "Content-Type": "text/html" }).end("<h1>no</h1>"));
    await expect(client().checkouts.get("co_1")).rejects.toMatchObject({
      code: "unexpected_response",
      status: 400,
      retry: false,
    });
    expect(seen).toHaveLength(1);
  });

  it("stop after maxRetries, with the last answer's error", async () => {
    handlers.push(...Array.from({ length: 5 }, () => problem(500, "internal_error", true)));
    await expect(client({ maxRetries: 1 }).checkouts.get("co_1")).rejects.toMatchObject({
      code: "internal_error",
      retry: true,
    });
    expect(seen).toHaveLength(2);
  });

  it("wait at least the Retry-After the API asked for", async () => {
    handlers.push(
      json(
        429,
        { type: "about:blank#rate_limited", title: "", status: 429, code: "rate_limited", retry: true },
        {
          "Retry-After": "1",
        },
      ),
      json(200, created),
    );
    const started = Date.now();
    await client().checkouts.get("co_1");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("back off exponentially with full jitter, capped", () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffMs(10, () => 1)).toBe(8000);
    expect(backoffMs(3, () => 0)).toBe(0);
  });
});

describe("timeouts", () => {
  it("end an attempt with no answer in time as `timeout`, which is retried", async () => {
    handlers.push(silent, json(200, created));
    await expect(client({ timeoutMs: 200 }).checkouts.get("co_1")).resolves.toEqual(created);
    expect(seen).toHaveLength(2);
  });

  it("throw `timeout` (status 0, retry true) when the last attempt gets none", async () => {
    handlers.push(silent);
    const started = Date.now();
    await expect(client({ timeoutMs: 200, maxRetries: 0 }).checkouts.get("co_1")).rejects.toMatchObject({
      name: "BankCheckoutError",
      code: "timeout",
      status: 0,
      retry: true,
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("cover the answer's body too", async () => {
    handlers.push((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"id":');
    });
    await expect(client({ timeoutMs: 200, maxRetries: 0 }).checkouts.get("co_1")).rejects.toMatchObject({
      code: "timeout",
    });
  });

  it("and the caller's own signal stops the call and its retries", async () => {
    handlers.push(silent, silent);
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error("user left")), 100);
    await expect(client().checkouts.get("co_1", { signal: stop.signal })).rejects.toThrow("user left");
    expect(seen).toHaveLength(1);
  });
});

describe("errors", () => {
  it("carry the problem's code, status, detail, field errors and the request id", async () => {
    handlers.push(
      json(
        400,
        {
          type: "about:blank#invalid_body",
          title: "The request is not valid.",
          status: 400,
          code: "invalid_body",
          retry: false,
          detail: "amount: must be a decimal string",
          errors: [{ path: "amount", message: "must be a decimal string" }, { junk: true }],
        },
        { "X-Request-Id": "req-42" },
      ),
    );
    const error = (await client()
      .checkouts.create(input)
      .catch((e: unknown) => e)) as BankCheckoutError;
    expect(error).toBeInstanceOf(BankCheckoutError);
    expect(error).toBeInstanceOf(Error);
    expect({ ...error, message: error.message }).toMatchObject({
      code: "invalid_body",
      status: 400,
      detail: "amount: must be a decimal string",
      errors: [{ path: "amount", message: "must be a decimal string" }],
      retry: false,
      requestId: "req-42",
      message: "invalid_body: amount: must be a decimal string",
    });
  });

  it("say `network_error` when nothing listens", async () => {
    const closed = new BankCheckout({ baseUrl: "http://127.0.0.1:9", apiKey: "k", maxRetries: 0 });
    await expect(closed.checkouts.get("co_1")).rejects.toMatchObject({ code: "network_error", status: 0 });
  });

  it("say `unexpected_response` for a success that is not JSON", async () => {
    handlers.push((_req, res) => res.writeHead(200).end("<html>"));
    await expect(client().checkouts.get("co_1")).rejects.toMatchObject({ code: "unexpected_response", status: 200 });
  });

  it("refuse a client without a usable base URL or key", () => {
    expect(() => new BankCheckout({ baseUrl: "pay.example.com", apiKey: "k" })).toThrow(TypeError);
    expect(() => new BankCheckout({ baseUrl: "ftp://pay.example.com", apiKey: "k" })).toThrow(TypeError);
    expect(() => new BankCheckout({ baseUrl, apiKey: " " })).toThrow(TypeError);
    expect(() => new BankCheckout({ baseUrl, apiKey: "k", timeoutMs: 0 })).toThrow(TypeError);
    expect(() => new BankCheckout({ baseUrl, apiKey: "k", maxRetries: -1 })).toThrow(TypeError);
  });
});
