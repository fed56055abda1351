import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INITIATED_BANK,
  INITIATED_CARD,
  INITIATED_V01,
  PAYMENT_ID,
  PAYMENT_RAW,
  PAYMENT_V01,
  STATUS_CANCELLED,
  STATUS_CARD,
  STATUS_HYBRID_EXPIRED,
  STATUS_V01,
} from "./test-fixtures";
import {
  forceStatus,
  PAYMENT_INPUT,
  rejection,
  RETURN_URL,
  SANDBOX_NOCARD,
  sandboxClient,
  startRecordedProvider,
  walkHostedPage,
  type RecordedProvider,
} from "./test-helpers";
import { API_VERSIONS } from "./versions";

const PSU = {
  ipAddress: "203.0.113.7",
  ipPort: 51234,
  userAgent: "Mozilla/5.0 (test)",
  deviceId: "device-1",
  httpMethod: "POST" as const,
};

describe.each(API_VERSIONS)("payments with the sandbox, %s", (version) => {
  const pis = () => sandboxClient(version);

  it("initiates a bank payment, then reads it and its status", async () => {
    const started = await pis().payments.initiate({
      ...PAYMENT_INPUT,
      bankId: "SWEDBANK_LT_SAND",
      email: "payer@example.com",
    });
    expect(started.status).toEqual({ group: "started", kind: "bank", code: "STRD", errorCodes: [] });
    expect(started.id).toMatch(/^[0-9a-f]{40}$/);
    expect(started.confirmLink).toContain(started.id);

    const read = await pis().payments.get(started.id);
    expect(read).toMatchObject({
      id: started.id,
      amount: "12.50",
      currencyCode: "EUR",
      bankPaymentMethod: {
        creditorName: "Demo Shop UAB",
        endToEndId: "order-42",
        creditorAccount: { iban: "LT601010012345678901" },
      },
      status: { group: "started", kind: "bank", code: "STRD" },
    });
    expect(await pis().payments.status(started.id)).toEqual({
      group: "started",
      kind: "bank",
      code: "STRD",
      errorCodes: [],
    });
  });

  it("reads a payment and its status with the payer's PSU details", async () => {
    const started = await pis().payments.initiate(PAYMENT_INPUT);
    expect((await pis().payments.get(started.id, { psu: PSU })).id).toBe(started.id);
    expect((await pis().payments.status(started.id, { psu: PSU })).group).toBe("started");
  });

  it("carries lang and the country override into the confirmLink", async () => {
    const started = await pis().payments.initiate({ ...PAYMENT_INPUT, lang: "lt", countryCode: "LV" });
    const link = new URL(started.confirmLink ?? "");
    expect(link.searchParams.get("lang")).toBe("lt");
    expect(link.searchParams.get("countryCode")).toBe("LV");
  });

  it("takes the optional bank details of the version's body", async () => {
    const started = await pis().payments.initiate({
      ...PAYMENT_INPUT,
      debtorIban: "LT121000011101001000",
      informationStructured: { reference: "00220055", referenceType: "SCOR" },
      requestedExecutionDate: "2030-01-15",
      redirectPreferred: false,
    });
    const read = await pis().payments.get(started.id);
    expect(read.bankPaymentMethod?.endToEndId).toBe("order-42");
    // ADR 6 lists no informationStructured in the v0.1 body, so only v0.3 must echo it.
    if (version === "v0.3") expect(read.bankPaymentMethod?.informationStructured?.reference).toBe("00220055");
  });

  it("reports the completed status the bank gives", async () => {
    const started = await pis().payments.initiate(PAYMENT_INPUT);
    await forceStatus(started.id, { bankStatus: "ACSC", statusGroup: "completed" });
    expect(await pis().payments.status(started.id)).toEqual({
      group: "completed",
      kind: "bank",
      code: "ACSC",
      errorCodes: [],
    });
    expect((await pis().payments.get(started.id)).status).toMatchObject({ group: "completed", code: "ACSC" });
  });

  it("reports a pending status as pending", async () => {
    const started = await pis().payments.initiate(PAYMENT_INPUT);
    await forceStatus(started.id, { bankStatus: "ACTC" });
    expect(await pis().payments.status(started.id)).toMatchObject({ group: "pending", kind: "bank", code: "ACTC" });
  });

  it("reports an approval on the hosted page as completed", async () => {
    const started = await pis().payments.initiate({ ...PAYMENT_INPUT, bankId: "SEB_LT_SAND" });
    const back = await walkHostedPage(started.confirmLink ?? "", RETURN_URL);
    expect(back.searchParams.get("paymentId")).toBe(started.id);
    expect(await pis().payments.status(started.id)).toMatchObject({ group: "completed", kind: "bank", code: "ACSC" });
  });

  it("carries the provider's error envelope on a refused payment", async () => {
    const err = await rejection(pis().payments.initiate({ ...PAYMENT_INPUT, redirectUrl: "not a url" }));
    expect(err).toMatchObject({
      kind: "http",
      httpStatus: 400,
      providerName: "InvalidRedirect",
      outcomeUnknown: false,
    });
  });

  it("carries the validation message of a bad amount", async () => {
    const err = await rejection(pis().payments.initiate({ ...PAYMENT_INPUT, amount: "1,230" }));
    expect(err).toMatchObject({ kind: "http", httpStatus: 400, data: '"amount" must be a number' });
  });

  it("reports an unknown payment as a 404", async () => {
    expect(await rejection(pis().payments.status("0".repeat(40)))).toMatchObject({ kind: "http", httpStatus: 404 });
    expect(await rejection(pis().payments.get("0".repeat(40)))).toMatchObject({ kind: "http", httpStatus: 404 });
  });

  if (version !== "v0.3") {
    it.each(["card", "hybrid"] as const)(
      "refuses a %s payment before sending: the version has none",
      async (method) => {
        const err = await rejection(pis().payments.initiate({ ...PAYMENT_INPUT, method }));
        expect(err).toMatchObject({ kind: "unsupported", attempts: 0, outcomeUnknown: false });
      },
    );
  }
});

describe("card and hybrid payments with the sandbox, v0.3", () => {
  const pis = () => sandboxClient("v0.3");

  it("starts a card payment as hybrid 'created', then reports the card's status", async () => {
    const started = await pis().payments.initiate({ ...PAYMENT_INPUT, method: "card" });
    expect(started.status).toEqual({ group: "started", kind: "hybrid", code: "created", errorCodes: [] });
    await forceStatus(started.id, { cardStatus: "payment_success", statusGroup: "completed" });
    expect(await pis().payments.status(started.id)).toMatchObject({
      group: "completed",
      kind: "card",
      code: "payment_success",
    });
    expect((await pis().payments.get(started.id)).status).toMatchObject({ kind: "card", code: "payment_success" });
  });

  it("reports a declined card as failed", async () => {
    const started = await pis().payments.initiate({ ...PAYMENT_INPUT, method: "card" });
    await forceStatus(started.id, { cardStatus: "payment_failure", statusGroup: "failed" });
    expect(await pis().payments.status(started.id)).toMatchObject({
      group: "failed",
      kind: "card",
      code: "payment_failure",
    });
  });

  it("starts a hybrid payment, which reports the bank status once the payer pays by bank", async () => {
    const started = await pis().payments.initiate({ ...PAYMENT_INPUT, method: "hybrid" });
    expect(started.status).toMatchObject({ group: "started", kind: "hybrid", code: "created" });
    await forceStatus(started.id, { bankStatus: "ACSC", statusGroup: "completed" });
    expect(await pis().payments.status(started.id)).toMatchObject({ group: "completed", kind: "bank", code: "ACSC" });
  });

  it("reports a hybrid payment cancelled before a method was chosen as failed", async () => {
    const started = await pis().payments.initiate({ ...PAYMENT_INPUT, method: "hybrid" });
    await forceStatus(started.id, { hybridStatus: "cancelled", statusGroup: "failed" });
    expect(await pis().payments.status(started.id)).toMatchObject({
      group: "failed",
      kind: "hybrid",
      code: "cancelled",
    });
  });

  it("refuses a card payment for a project without cards", async () => {
    const err = await rejection(
      sandboxClient("v0.3", SANDBOX_NOCARD).payments.initiate({ ...PAYMENT_INPUT, method: "card" }),
    );
    expect(err).toMatchObject({ kind: "http", httpStatus: 400, providerName: "InvalidPaymentMethod" });
  });
});

describe("payments from recorded responses", () => {
  let provider: RecordedProvider;
  beforeAll(async () => {
    provider = await startRecordedProvider();
  });
  afterAll(() => provider.close());

  const body = () => JSON.parse(provider.only().body) as Record<string, unknown>;

  it("sends the v0.3 nested body, headers and query of a bank payment", async () => {
    provider.reply({ json: INITIATED_BANK });
    const started = await provider.client().payments.initiate({
      ...PAYMENT_INPUT,
      email: "payer@example.com",
      bankId: "SWEDBANK_LT",
      redirectPreferred: true,
      lang: "lt",
      countryCode: "LV",
      webhookUrl: "https://shop.example/webhooks/pis?order=42",
      debtorIban: "LT121000011101001000",
      informationStructured: { reference: "00220055", referenceType: "SCOR" },
      requestedExecutionDate: "2030-01-15",
    });
    expect(started).toEqual({
      ...INITIATED_BANK,
      status: { group: "started", kind: "bank", code: "STRD", errorCodes: [] },
    });
    const req = provider.only();
    expect(req).toMatchObject({ method: "POST", path: "/v0.3/pis/payment" });
    expect(Object.fromEntries(req.query)).toEqual({
      bankId: "SWEDBANK_LT",
      redirectPreferred: "true",
      lang: "lt",
      countryCode: "LV",
    });
    expect(req.headers).toMatchObject({
      "redirect-url": RETURN_URL,
      "webhook-url": "https://shop.example/webhooks/pis?order=42",
      "content-type": "application/json",
    });
    expect(req.headers.authorization).toBeUndefined();
    expect(body()).toEqual({
      amount: "12.50",
      currencyCode: "EUR",
      description: "Order 42",
      bankPaymentMethod: {
        endToEndId: "order-42",
        creditorName: "Demo Shop UAB",
        creditorAccount: { iban: "LT601010012345678901" },
        debtorAccount: { iban: "LT121000011101001000" },
        informationStructured: { reference: "00220055", referenceType: "SCOR" },
        requestedExecutionDate: "2030-01-15",
      },
      identifier: { email: "payer@example.com" },
    });
  });

  it("asks for a card payment with cardPaymentMethod {} and paymentMethodPreferred=card", async () => {
    provider.reply({ json: INITIATED_CARD });
    const started = await provider.client().payments.initiate({ ...PAYMENT_INPUT, method: "card" });
    expect(started.status).toEqual({ group: "started", kind: "hybrid", code: "created", errorCodes: [] });
    expect(provider.only().query.get("paymentMethodPreferred")).toBe("card");
    expect(body()).toMatchObject({ cardPaymentMethod: {}, bankPaymentMethod: { endToEndId: "order-42" } });
  });

  it("asks for a hybrid payment with both method objects and no preference", async () => {
    provider.reply({ json: INITIATED_CARD });
    await provider.client().payments.initiate({ ...PAYMENT_INPUT, method: "hybrid" });
    expect(provider.only().query.has("paymentMethodPreferred")).toBe(false);
    expect(body()).toMatchObject({ cardPaymentMethod: {}, bankPaymentMethod: { creditorName: "Demo Shop UAB" } });
  });

  it("asks for a bank payment without cardPaymentMethod or preference", async () => {
    provider.reply({ json: INITIATED_BANK });
    await provider.client().payments.initiate(PAYMENT_INPUT);
    expect(provider.only().query.has("paymentMethodPreferred")).toBe(false);
    expect(body()).not.toHaveProperty("cardPaymentMethod");
  });

  it("pays from a linked account with its access token as Bearer", async () => {
    provider.reply({ json: INITIATED_BANK });
    await provider.client().payments.initiate({ ...PAYMENT_INPUT, accessToken: "tok-1" });
    expect(provider.only().headers.authorization).toBe("Bearer tok-1");
  });

  it.each(["v0.1", "v0.2"] as const)("sends the flat body in %s", async (version) => {
    provider.reply({ json: INITIATED_V01 });
    await provider.client(version).payments.initiate({
      ...PAYMENT_INPUT,
      email: "payer@example.com",
      debtorIban: "LT121000011101001000",
      requestedExecutionDate: "2030-01-15",
    });
    expect(provider.only().path).toBe(`/${version}/pis/payment`);
    expect(body()).toEqual({
      endToEndId: "order-42",
      informationUnstructured: "Order 42",
      currencyCode: "EUR",
      amount: "12.50",
      creditorName: "Demo Shop UAB",
      creditorAccount: { iban: "LT601010012345678901" },
      debtorAccount: { iban: "LT121000011101001000" },
      requestedExecutionDate: "2030-01-15",
      identifier: { email: "payer@example.com" },
    });
  });

  it("refuses a card payment in v0.1 without sending anything", async () => {
    provider.reply({ json: INITIATED_CARD });
    const err = await rejection(provider.client("v0.1").payments.initiate({ ...PAYMENT_INPUT, method: "card" }));
    expect(err).toMatchObject({ kind: "unsupported", operation: "initiatePayment" });
    expect(provider.requests).toHaveLength(0);
  });

  it("normalises the v0.1 status field of every answer", async () => {
    provider.reply({ json: INITIATED_V01 });
    expect((await provider.client("v0.1").payments.initiate(PAYMENT_INPUT)).status).toEqual({
      group: "started",
      kind: "bank",
      code: "STRD",
      errorCodes: [],
    });

    provider.reply({ json: STATUS_V01 });
    expect(await provider.client("v0.1").payments.status(PAYMENT_ID)).toEqual({
      group: "pending",
      kind: "bank",
      code: "ACSP",
      errorCodes: [],
    });

    provider.reply({ json: PAYMENT_V01 });
    const read = await provider.client("v0.1").payments.get(PAYMENT_ID);
    expect(read).toMatchObject({
      amount: "12.50",
      description: "Order 42",
      bankPaymentMethod: { endToEndId: "order-42", creditorName: "Demo Shop UAB" },
      status: { group: "completed", kind: "bank", code: "ACSC" },
    });
  });

  it("sends PSU-IP-Address only in v0.1, four PSU headers in v0.2, none in v0.3", async () => {
    const psuHeaders = () =>
      Object.keys(provider.only().headers)
        .filter((h) => h.startsWith("psu-"))
        .sort();
    provider.reply({ json: STATUS_V01 });
    await provider.client("v0.1").payments.status(PAYMENT_ID, { psu: PSU });
    expect(psuHeaders()).toEqual(["psu-ip-address"]);
    expect(provider.only().headers["psu-ip-address"]).toBe("203.0.113.7");

    provider.reply({ json: PAYMENT_V01 });
    await provider.client("v0.2").payments.get(PAYMENT_ID, { psu: PSU });
    expect(psuHeaders()).toEqual(["psu-device-id", "psu-ip-address", "psu-ip-port", "psu-user-agent"]);
    expect(provider.only().headers).toMatchObject({
      "psu-ip-port": "51234",
      "psu-user-agent": "Mozilla/5.0 (test)",
      "psu-device-id": "device-1",
    });

    provider.reply({ json: STATUS_CANCELLED });
    await provider.client("v0.3").payments.status(PAYMENT_ID, { psu: PSU });
    expect(psuHeaders()).toEqual([]);
  });

  it("sends no PSU headers when none are given", async () => {
    provider.reply({ json: STATUS_V01 });
    await provider.client("v0.2").payments.status(PAYMENT_ID);
    expect(Object.keys(provider.only().headers).filter((h) => h.startsWith("psu-"))).toEqual([]);
  });

  it("reads the status of a cancelled, a card and an expired hybrid payment", async () => {
    provider.reply({ json: STATUS_CANCELLED });
    expect(await provider.client().payments.status(PAYMENT_ID)).toEqual({
      group: "failed",
      kind: "bank",
      code: "CANC",
      errorCodes: [21004],
    });
    expect(provider.only()).toMatchObject({ method: "GET", path: `/v0.3/pis/payment/${PAYMENT_ID}/status` });

    provider.reply({ json: STATUS_CARD });
    expect(await provider.client().payments.status(PAYMENT_ID)).toEqual({
      group: "completed",
      kind: "card",
      code: "payment_success",
      errorCodes: [],
    });

    provider.reply({ json: STATUS_HYBRID_EXPIRED });
    expect(await provider.client().payments.status(PAYMENT_ID)).toEqual({
      group: "failed",
      kind: "hybrid",
      code: "expired",
      errorCodes: [],
    });
  });

  it("reads the captured payment, its amount exactly as sent", async () => {
    provider.reply({ text: PAYMENT_RAW });
    const read = await provider.client().payments.get(PAYMENT_ID);
    expect(read).toMatchObject({
      amount: "0.10",
      bankPaymentMethod: { bankId: "SWEDBANK_LT", debtorAccount: { iban: "LT121000011101001000" } },
      status: { group: "completed", kind: "bank", code: "ACSC" },
    });
    expect(provider.only()).toMatchObject({ method: "GET", path: `/v0.3/pis/payment/${PAYMENT_ID}` });
  });

  it("refuses an initiation answer whose id is not 40 hex characters, naming the field", async () => {
    provider.reply({ json: { ...INITIATED_BANK, id: "12345" } });
    const err = await rejection(provider.client().payments.initiate(PAYMENT_INPUT));
    expect(err).toMatchObject({ kind: "parse", operation: "initiatePayment" });
    expect(err.description).toContain("id");
  });

  it("refuses a status answer with statusGroup in place of group", async () => {
    provider.reply({ json: { bankStatus: "ACSC", statusGroup: "completed" } });
    const err = await rejection(provider.client().payments.status(PAYMENT_ID));
    expect(err.kind).toBe("parse");
    expect(err.description).toContain("group");
  });
});
