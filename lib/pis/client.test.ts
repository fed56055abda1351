import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPisClient, PisError } from "./index";

const credentials = { clientId: "sandbox-client-id", clientSecret: "sandbox-client-secret" };
const sandbox = () => createPisClient({ baseUrl: `${inject("sandboxUrl")}/platform`, ...credentials, timeoutMs: 5000 });

const payment = {
  amount: "12.50",
  currencyCode: "EUR",
  description: "Order 42",
  endToEndId: "order-42",
  creditorName: "Demo Shop UAB",
  creditorIban: "LT601010012345678901",
  redirectUrl: "http://localhost:3000/checkout/co_x/return",
};

async function thrown(p: Promise<unknown>): Promise<PisError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(PisError);
  return err as PisError;
}

describe("provider client against the sandbox", () => {
  it("lists the banks of one country", async () => {
    const banks = await sandbox().banks.list({ countryCode: "LT" });
    expect(banks.length).toBeGreaterThan(2);
    expect(banks.every((b) => b.countryCode === "LT" && b.isSandbox)).toBe(true);
  });

  it("reads one bank", async () => {
    const [first] = await sandbox().banks.list({ countryCode: "EE" });
    const one = await sandbox().banks.get(first!.id);
    expect(one).toMatchObject({ id: first!.id, countryCode: "EE" });
  });

  it("initiates a payment, then reads it and its status", async () => {
    const pis = sandbox();
    const started = await pis.payments.initiate({ ...payment, bankId: "SWEDBANK_LT_SAND" });
    expect(started.status).toEqual({ group: "started", kind: "bank", code: "STRD", errorCodes: [] });
    expect(started.confirmLink).toContain(started.id);

    const read = await pis.payments.get(started.id);
    expect(read).toMatchObject({ amount: "12.50", currencyCode: "EUR", bankPaymentMethod: { creditorName: "Demo Shop UAB", endToEndId: "order-42" } });
    expect(await pis.payments.status(started.id)).toMatchObject({ group: "started", code: "STRD" });
  });

  it("carries the provider's error envelope on a refused payment", async () => {
    const err = await thrown(sandbox().payments.initiate({ ...payment, redirectUrl: "not a url" }));
    expect(err).toMatchObject({ kind: "http", httpStatus: 400, providerName: "InvalidRedirect" });
    expect(err.outcomeUnknown).toBe(false);
  });

  it("reports wrong credentials as a 401", async () => {
    const pis = createPisClient({ baseUrl: `${inject("sandboxUrl")}/platform`, clientId: "sandbox-client-id", clientSecret: "wrong" });
    const err = await thrown(pis.banks.list({ countryCode: "LT" }));
    expect(err).toMatchObject({ kind: "http", httpStatus: 401 });
  });

  it("reports an unknown payment as a 404", async () => {
    const err = await thrown(sandbox().payments.status("0".repeat(40)));
    expect(err).toMatchObject({ kind: "http", httpStatus: 404 });
  });
});

describe("provider client when the provider misbehaves", () => {
  let server: Server;
  let base: string;
  let mode: "hang" | "not-json" | "500" | "wrong-shape" = "hang";

  beforeAll(async () => {
    server = createServer((_req, res) => {
      if (mode === "hang") return; // never answers
      if (mode === "500") return res.writeHead(500).end("upstream broke");
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(mode === "not-json" ? "<html>proxy page</html>" : JSON.stringify({ group: "completed" }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/platform`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const client = () => createPisClient({ baseUrl: base, ...credentials, timeoutMs: 300 });

  it("times out instead of hanging, and says the outcome is unknown", async () => {
    mode = "hang";
    const err = await thrown(client().payments.initiate(payment));
    expect(err.kind).toBe("timeout");
    expect(err.outcomeUnknown).toBe(true);
  });

  it("tells a 5xx apart from a refusal", async () => {
    mode = "500";
    const err = await thrown(client().banks.list());
    expect(err).toMatchObject({ kind: "http", httpStatus: 500 });
    expect(err.outcomeUnknown).toBe(true);
  });

  it("refuses a 200 that is not JSON", async () => {
    mode = "not-json";
    expect((await thrown(client().banks.list())).kind).toBe("parse");
  });

  it("refuses a 200 of the wrong shape, naming the field", async () => {
    mode = "wrong-shape";
    const err = await thrown(client().payments.initiate(payment));
    expect(err.kind).toBe("parse");
    expect(err.description).toContain("id");
  });

  it("reports a refused connection as a network error", async () => {
    const pis = createPisClient({ baseUrl: "http://127.0.0.1:1/platform", ...credentials, timeoutMs: 2000 });
    expect((await thrown(pis.banks.list())).kind).toBe("network");
  });
});
