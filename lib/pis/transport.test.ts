import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PAYMENT_ID,
  PAYMENT_RAW,
  ERROR_INVALID_AMOUNT,
  ERROR_INVALID_COUNTRY,
  BANK_V03,
  STATUS_CANCELLED,
} from "./test-fixtures";
import { PAYMENT_INPUT, rejection, startRecordedProvider, type RecordedProvider } from "./test-helpers";
import { backoffDelay, bearer, createTransport, quoteNumericAmounts } from "./transport";
import { MAX_ANSWER_BYTES } from "./send";
import { API_VERSIONS } from "./versions";

let provider: RecordedProvider;
beforeAll(async () => {
  provider = await startRecordedProvider();
});
afterAll(() => provider.close());

describe("every request", () => {
  it.each(API_VERSIONS)("goes to the %s path with the project's credentials", async (version) => {
    provider.reply({ json: { data: ["LT"] } });
    await provider.client(version).general.countries();
    const req = provider.only();
    expect(req).toMatchObject({ method: "GET", path: `/${version}/auth/countries` });
    expect(req.headers).toMatchObject({
      "client-id": "recorded-id",
      "client-secret": "recorded-secret",
      accept: "application/json",
    });
    expect(req.headers["content-type"]).toBeUndefined();
  });

  it("carries the plugin headers when configured, and none otherwise", async () => {
    provider.reply({ json: { data: ["LT"] } });
    await provider
      .client("v0.3", { plugin: { version: "1.4.0", platform: "Next.js", platformVersion: "16.4.6" } })
      .general.countries();
    expect(provider.only().headers).toMatchObject({
      "plugin-version": "1.4.0",
      "plugin-platform": "Next.js",
      "plugin-platform-version": "16.4.6",
    });

    provider.reply({ json: { data: ["LT"] } });
    await provider.client().general.countries();
    expect(provider.only().headers["plugin-version"]).toBeUndefined();
  });

  it("sends a body with letters beyond ASCII whole, byte for byte", async () => {
    provider.reply({ json: { id: PAYMENT_ID, bankStatus: "STRD", statusGroup: "started" } });
    await provider.client().payments.initiate({
      ...PAYMENT_INPUT,
      creditorName: "Ūkininkų žąsys, UAB",
      description: "Užsakymas №42 – ačiū",
    });
    const req = provider.only();
    expect(Number(req.headers["content-length"])).toBe(Buffer.byteLength(req.body));
    expect(JSON.parse(req.body)).toMatchObject({
      description: "Užsakymas №42 – ačiū",
      bankPaymentMethod: { creditorName: "Ūkininkų žąsys, UAB" },
    });
  });

  it("takes a base URL with or without a trailing slash", async () => {
    provider.reply({ json: { data: ["LT"] } });
    await provider.client("v0.3", { baseUrl: `${provider.baseUrl}/` }).general.countries();
    expect(provider.only().path).toBe("/v0.3/auth/countries");
  });

  it("prefixes a bare access token with Bearer, once", () => {
    expect(bearer("abc")).toBe("Bearer abc");
    expect(bearer("Bearer abc")).toBe("Bearer abc");
    expect(bearer("bearer abc")).toBe("bearer abc");
  });
});

describe("a refusal by the provider", () => {
  it("carries the error envelope: status, code, name, description and data", async () => {
    provider.reply({ status: 400, json: ERROR_INVALID_COUNTRY });
    const err = await rejection(provider.client().banks.list({ countryCode: "lt" }));
    expect(err).toMatchObject({
      kind: "http",
      operation: "getBanks",
      httpStatus: 400,
      code: 10015,
      providerName: "InvalidCountryCode",
      description: "Invalid country code.",
      data: {},
      outcomeUnknown: false,
    });
    expect(err.message).toBe("getBanks failed: HTTP 400 InvalidCountryCode: Invalid country code.");
  });

  it("keeps a validation message in data", async () => {
    provider.reply({ status: 400, json: ERROR_INVALID_AMOUNT });
    const err = await rejection(provider.client().payments.initiate({ ...PAYMENT_INPUT, amount: "1,230" }));
    expect(err).toMatchObject({
      httpStatus: 400,
      code: 10021,
      providerName: "InvalidPaymentData",
      data: '"amount" must be a number',
    });
  });

  it("reports a 401 without a body, with the status alone", async () => {
    provider.reply({ status: 401 });
    const err = await rejection(provider.client().banks.list());
    expect(err).toMatchObject({
      kind: "http",
      httpStatus: 401,
      code: undefined,
      providerName: undefined,
      outcomeUnknown: false,
    });
  });

  it("reports a status the official clients do not parse (403, 404, 422) with whatever envelope it has", async () => {
    provider.reply({
      status: 404,
      json: { error: { code: 10004, name: "NotFound", description: "Payment not found." }, data: {} },
    });
    expect(await rejection(provider.client().payments.status(PAYMENT_ID))).toMatchObject({
      httpStatus: 404,
      code: 10004,
      providerName: "NotFound",
    });
    provider.reply({ status: 422, json: { error: { code: "not-a-number", name: "Odd" } } });
    expect(await rejection(provider.client().payments.status(PAYMENT_ID))).toMatchObject({
      httpStatus: 422,
      code: undefined,
      providerName: "Odd",
    });
  });

  it("is not retried when it is a 4xx, even for a GET", async () => {
    provider.reply({ status: 400, json: ERROR_INVALID_COUNTRY }, { json: { data: [] } });
    await rejection(provider.client().banks.list({ countryCode: "XX" }));
    expect(provider.requests).toHaveLength(1);
  });

  it("treats a redirect as a failure instead of following it", async () => {
    provider.reply({ status: 302 });
    expect(await rejection(provider.client().banks.list())).toMatchObject({ kind: "http", httpStatus: 302 });
  });
});

describe("a provider in trouble", () => {
  it("has a GET retried after a 5xx, and the read succeeds", async () => {
    provider.reply({ status: 503 }, { status: 502, text: "<html>bad gateway</html>" }, { json: { data: [BANK_V03] } });
    const banks = await provider.client().banks.list({ countryCode: "LT" });
    expect(banks[0]?.id).toBe("SWEDBANK_LT");
    expect(provider.requests).toHaveLength(3);
    expect(provider.requests.every((r) => r.method === "GET" && r.query.get("countryCode") === "LT")).toBe(true);
  });

  it("gives up on a GET after the configured number of tries", async () => {
    provider.reply({
      status: 500,
      json: { error: { code: 10000, name: "SystemError", description: "Internal error." }, data: {} },
    });
    const err = await rejection(
      provider.client("v0.3", { retry: { attempts: 4, baseMs: 1, maxMs: 2 } }).payments.status(PAYMENT_ID),
    );
    expect(err).toMatchObject({
      kind: "http",
      httpStatus: 500,
      providerName: "SystemError",
      attempts: 4,
      outcomeUnknown: true,
    });
    expect(provider.requests).toHaveLength(4);
  });

  it("never retries a POST after a 5xx: the payment may exist", async () => {
    provider.reply({ status: 500 }, { json: { id: PAYMENT_ID, bankStatus: "STRD", statusGroup: "started" } });
    const err = await rejection(provider.client().payments.initiate(PAYMENT_INPUT));
    expect(err).toMatchObject({ kind: "http", httpStatus: 500, attempts: 1, outcomeUnknown: true });
    expect(provider.requests).toHaveLength(1);
  });

  it("never retries a POST that timed out, and says the outcome is unknown", async () => {
    provider.reply({ hang: true }, { json: { id: PAYMENT_ID, bankStatus: "STRD", statusGroup: "started" } });
    const err = await rejection(provider.client("v0.3", { timeoutMs: 150 }).payments.initiate(PAYMENT_INPUT));
    expect(err).toMatchObject({ kind: "timeout", outcomeUnknown: true, attempts: 1 });
    expect(provider.requests).toHaveLength(1);
  });

  it("retries a GET that timed out", async () => {
    provider.reply({ hang: true }, { json: STATUS_CANCELLED });
    const status = await provider.client("v0.3", { timeoutMs: 150 }).payments.status(PAYMENT_ID);
    expect(status).toMatchObject({ group: "failed", code: "CANC" });
    expect(provider.requests).toHaveLength(2);
  });

  it("tells a dropped connection (network) apart from a timeout", async () => {
    provider.reply({ reset: true });
    const err = await rejection(provider.client("v0.3", { retry: { attempts: 1 } }).payments.status(PAYMENT_ID));
    expect(err).toMatchObject({ kind: "network", outcomeUnknown: true });

    provider.reply({ hang: true });
    const slow = await rejection(
      provider.client("v0.3", { timeoutMs: 100, retry: { attempts: 1 } }).payments.status(PAYMENT_ID),
    );
    expect(slow.kind).toBe("timeout");
  });

  it("gives up on an answer that starts and then stalls, as a timeout", async () => {
    provider.reply({ partial: "hang", json: STATUS_CANCELLED });
    const err = await rejection(
      provider.client("v0.3", { timeoutMs: 150, retry: { attempts: 1 } }).payments.status(PAYMENT_ID),
    );
    expect(err).toMatchObject({ kind: "timeout", outcomeUnknown: true });
  });

  it("never takes an answer cut off in the middle for a whole one", async () => {
    provider.reply({ partial: "reset", json: STATUS_CANCELLED });
    const err = await rejection(provider.client("v0.3", { retry: { attempts: 1 } }).payments.status(PAYMENT_ID));
    expect(err).toMatchObject({ kind: "network", outcomeUnknown: true });
  });

  it("cuts off an answer larger than any the provider sends, instead of holding it", async () => {
    provider.reply({ text: `{"data":["${"x".repeat(MAX_ANSWER_BYTES)}"]}` });
    // 16 MiB through localhost can take longer than the test client's 1 s on a loaded machine,
    // which would end it as a timeout before the size check is reached.
    const client = provider.client("v0.3", { retry: { attempts: 1 }, timeoutMs: 30_000 });
    const err = await rejection(client.general.countries());
    expect(err).toMatchObject({ kind: "network" });
    expect(String((err.cause as Error).message)).toMatch(/larger than/);
  });

  it("retries a GET after a dropped connection", async () => {
    provider.reply({ reset: true }, { json: STATUS_CANCELLED });
    expect((await provider.client().payments.status(PAYMENT_ID)).group).toBe("failed");
    expect(provider.requests).toHaveLength(2);
  });

  it("reports a refused connection as a network error after the GET's tries", async () => {
    const pis = createTransport({
      baseUrl: "http://127.0.0.1:1/platform",
      clientId: "a",
      clientSecret: "b",
      retry: { attempts: 2, baseMs: 1, maxMs: 1 },
    });
    const { z } = await import("zod");
    const err = await rejection(
      pis({ operation: "getCountries", method: "GET", path: "/auth/countries", schema: z.unknown() }),
    );
    expect(err).toMatchObject({ kind: "network", attempts: 2 });
  });

  it("refuses a 200 that is not JSON, without retrying, as an answer whose outcome is unknown", async () => {
    provider.reply({ text: "<html>proxy login</html>" }, { json: { data: [] } });
    const err = await rejection(provider.client().banks.list());
    expect(err).toMatchObject({
      kind: "parse",
      httpStatus: 200,
      description: "response is not JSON",
      outcomeUnknown: true,
    });
    expect(provider.requests).toHaveLength(1);
  });

  it("waits longer before each retry, within the bound", async () => {
    provider.reply({ status: 503 }, { status: 503 }, { json: STATUS_CANCELLED });
    const started = Date.now();
    await provider.client("v0.3", { retry: { attempts: 3, baseMs: 60, maxMs: 1000 } }).payments.status(PAYMENT_ID);
    // At least half of each ceiling: 30 ms, then 60 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(85);
  });
});

describe("back-off", () => {
  const policy = { attempts: 5, baseMs: 200, maxMs: 2000 };

  it("doubles its ceiling per retry and never passes maxMs", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, policy, () => 1))).toEqual([200, 400, 800, 1600, 2000, 2000]);
  });

  it("is jittered between half and all of the ceiling", () => {
    expect(backoffDelay(2, policy, () => 0)).toBe(200);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(300);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(3, policy);
      expect(d).toBeGreaterThanOrEqual(400);
      expect(d).toBeLessThanOrEqual(800);
    }
  });
});

describe("money in responses", () => {
  it("keeps a numeric amount exactly as the provider wrote it", async () => {
    provider.reply({ text: PAYMENT_RAW });
    const p = await provider.client().payments.get(PAYMENT_ID);
    expect(p.amount).toBe("0.10");
  });

  it("quotes only values of a key named amount, never text inside strings", () => {
    const raw =
      '{"amount":12.50,"description":"\\"amount\\": 3 and amount:4","n":7,"items":[{"amount" : -0.3},{"amount":"1.00"}],"x":{"amount":{"value":1}}}';
    expect(JSON.parse(quoteNumericAmounts(raw))).toEqual({
      amount: "12.50",
      description: '"amount": 3 and amount:4',
      n: 7,
      items: [{ amount: "-0.3" }, { amount: "1.00" }],
      x: { amount: { value: 1 } },
    });
  });

  it("refuses an amount in exponent notation rather than guess", async () => {
    provider.reply({ text: PAYMENT_RAW.replace('"amount":0.10', '"amount":1e2') });
    const err = await rejection(provider.client().payments.get(PAYMENT_ID));
    expect(err.kind).toBe("parse");
    expect(err.description).toContain("amount");
  });
});
