import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayment, credentials, getJson, initiate, paymentBody, startSandbox, type RunningSandbox } from "./test-helpers";

let s: RunningSandbox;

beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.sandbox.close();
});

type Bank = Record<string, unknown> & { id: string; countryCode: string; imageUri: string };

describe("banks", () => {
  it("lists the test banks of one country in the provider's Bank shape", async () => {
    const { status, json } = await getJson(`${s.api}/auth/banks?countryCode=LT`);
    expect(status).toBe(200);
    const banks = (json as { data: Bank[] }).data;
    expect(banks.length).toBeGreaterThanOrEqual(4);
    expect(banks.every((b) => b.countryCode === "LT")).toBe(true);
    const swedbank = banks.find((b) => b.id === "SWEDBANK_LT_SAND");
    expect(swedbank).toEqual({
      id: "SWEDBANK_LT_SAND",
      name: "Swedbank",
      officialName: expect.any(String),
      scaApproaches: { AIS: ["REDIRECT"], PIS: ["REDIRECT"], AUTH: ["REDIRECT"] },
      countryCode: "LT",
      isSandbox: true,
      imageUri: `${s.baseUrl}/logos/SWEDBANK_LT_SAND.svg`,
      bic: "HABALT22",
      isBeta: false,
      hasSavingsBanks: false,
      isSavingsBank: false,
      isAccountLinkingSupported: true,
    });
  });

  it("lists LV and EE banks too, and every bank when no country is given", async () => {
    const lv = (await getJson(`${s.api}/auth/banks?countryCode=LV`)).json as { data: Bank[] };
    const ee = (await getJson(`${s.api}/auth/banks?countryCode=EE`)).json as { data: Bank[] };
    const all = (await getJson(`${s.api}/auth/banks`)).json as { data: Bank[] };
    expect(lv.data.map((b) => b.id)).toContain("CITADELE_LV_SAND");
    expect(ee.data.map((b) => b.id)).toContain("LHV_EE_SAND");
    expect(new Set(all.data.map((b) => b.countryCode))).toEqual(new Set(["LT", "LV", "EE"]));
    expect(all.data.length).toBeGreaterThan(lv.data.length + ee.data.length);
  });

  it("answers an empty list for a valid country without test banks", async () => {
    expect(await getJson(`${s.api}/auth/banks?countryCode=DE`)).toEqual({ status: 200, json: { data: [] } });
  });

  it("refuses a malformed country code with the provider's InvalidCountryCode envelope", async () => {
    for (const code of ["lt", "LTU", "L1", ""]) {
      expect(await getJson(`${s.api}/auth/banks?countryCode=${code}`)).toEqual({
        status: 400,
        json: { error: { code: 10015, name: "InvalidCountryCode", description: "Invalid country code." }, data: {} },
      });
    }
  });

  it("returns one bank as a bare object and 404 for an unknown one", async () => {
    const one = await getJson(`${s.api}/auth/banks/LHV_EE_SAND`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: "LHV_EE_SAND", countryCode: "EE", isSandbox: true });
    expect(one.json).not.toHaveProperty("data");

    const unknown = await getJson(`${s.api}/auth/banks/NOPE_LT`);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: { name: "NotFound", code: 10004 } });
  });

  it("serves each bank's imageUri as a cacheable SVG logo", async () => {
    const bank = ((await getJson(`${s.api}/auth/banks/SEB_LV_SAND`)).json as Bank).imageUri;
    const response = await fetch(bank);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("cache-control")).toContain("max-age");
    const svg = await response.text();
    expect(svg).toMatch(/^<svg [^>]*width="96" height="96"/);
    expect(svg).toContain(">SEB</text>");
    expect((await fetch(`${s.baseUrl}/logos/NOPE.svg`)).status).toBe(404);
  });

  it("answers the same routes under the v0.1 and v0.2 prefixes", async () => {
    for (const version of ["v0.1", "v0.2"]) {
      const { status, json } = await getJson(`${s.baseUrl}/platform/${version}/auth/banks/SEB_LT_SAND`);
      expect(status).toBe(200);
      expect(json).toMatchObject({ id: "SEB_LT_SAND" });
    }
    expect((await getJson(`${s.baseUrl}/platform/v0.4/auth/banks`)).status).toBe(404);
  });
});

describe("credentials", () => {
  const unauthorized = { error: { code: 10001, name: "Unauthorized", description: expect.any(String) }, data: {} };

  it("refuses API calls without credentials or with a wrong secret", async () => {
    expect(await getJson(`${s.api}/auth/banks`, {})).toEqual({ status: 401, json: unauthorized });
    expect(await getJson(`${s.api}/auth/banks`, { ...credentials, "Client-Secret": "wrong" })).toEqual({ status: 401, json: unauthorized });
    expect(await getJson(`${s.api}/auth/banks`, { ...credentials, "Client-Id": "someone-else" })).toEqual({ status: 401, json: unauthorized });
    const { status, json } = await initiate(s.api, { headers: { "Client-Secret": "" } });
    expect(status).toBe(401);
    expect(json).toEqual(unauthorized);
  });

  it("hides one project's payments from another project", async () => {
    s.sandbox.store.addProject({ id: "other", name: "Other", clientId: "other-id", clientSecret: "other-secret", webhookSecret: "x" });
    const { id } = await createPayment(s.api);
    const other = { "Client-Id": "other-id", "Client-Secret": "other-secret" };
    expect((await getJson(`${s.api}/pis/payment/${id}`, other)).status).toBe(404);
    expect((await getJson(`${s.api}/pis/payment/${id}/status`, other)).status).toBe(404);
    expect((await getJson(`${s.api}/pis/payment/${id}`)).status).toBe(200);
  });
});

describe("payment initiation", () => {
  it("starts a payment: 40-hex id, STRD/started and a confirmLink to the hosted page", async () => {
    const { status, json } = await initiate(s.api, { query: "?lang=lt" });
    expect(status).toBe(200);
    expect(json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      bankStatus: "STRD",
      statusGroup: "started",
      confirmLink: `${s.baseUrl}/login/${String(json.id)}?lang=lt`,
    });
  });

  it("uses the configured public URL in confirmLink and imageUri", async () => {
    const other = await startSandbox({ publicUrl: "https://sandbox.example.test/" });
    try {
      const { json } = await initiate(other.api);
      expect(json.confirmLink).toBe(`https://sandbox.example.test/login/${String(json.id)}`);
      const bank = (await getJson(`${other.api}/auth/banks/SEB_LT_SAND`)).json as Bank;
      expect(bank.imageUri).toBe("https://sandbox.example.test/logos/SEB_LT_SAND.svg");
    } finally {
      await other.sandbox.close();
    }
  });

  it("refuses a missing, relative or non-http Redirect-URL with InvalidRedirect", async () => {
    for (const redirectUrl of ["", "/return", "ftp://shop.example/x", "javascript:alert(1)", "not a url"]) {
      const { status, json } = await initiate(s.api, { redirectUrl });
      expect(status).toBe(400);
      expect(json).toMatchObject({ error: { name: "InvalidRedirect" } });
    }
  });

  it("refuses a malformed Webhook-URL and an unknown bankId", async () => {
    const badHook = await initiate(s.api, { webhookUrl: "hooks/pis" });
    expect(badHook.status).toBe(400);
    expect(badHook.json).toMatchObject({ error: { name: "InvalidWebhookUrl" } });

    const badBank = await initiate(s.api, { query: "?bankId=NOPE_LT" });
    expect(badBank.status).toBe(400);
    expect(badBank.json).toMatchObject({ error: { name: "InvalidBankId", code: 10018 } });
  });

  it("explains amount problems the way the provider does", async () => {
    const cases: [unknown, string][] = [
      ["1,230", '"amount" must be a number'],
      ["abc", '"amount" must be a number'],
      ["0.011", '"amount" contains an invalid value'],
      ["0", '"amount" must be greater than 0'],
      ["-5.00", '"amount" must be greater than 0'],
    ];
    for (const [amount, message] of cases) {
      const { status, json } = await initiate(s.api, { body: paymentBody({ amount }) });
      expect(status).toBe(400);
      expect(json).toEqual({ error: { code: 10021, name: "InvalidPaymentData", description: expect.any(String) }, data: message });
    }
    expect((await initiate(s.api, { body: paymentBody({ amount: "0.01" }) })).status).toBe(200);
    expect((await initiate(s.api, { body: paymentBody({ amount: "1500" }) })).status).toBe(200);
  });

  it("names the first invalid field in a Joi-style message", async () => {
    const { description: _d, ...withoutDescription } = paymentBody();
    const cases: [unknown, string][] = [
      [withoutDescription, '"description" is required'],
      [paymentBody({ description: "" }), '"description" is not allowed to be empty'],
      [paymentBody({ currencyCode: "eur" }), '"currencyCode" with value "eur" fails to match the required pattern: /^[A-Z]{3}$/'],
      [paymentBody({ bankPaymentMethod: undefined }), '"bankPaymentMethod" is required'],
      [paymentBody({ bankPaymentMethod: "x" }), '"bankPaymentMethod" must be of type object'],
      [
        paymentBody({ bankPaymentMethod: { endToEndId: "1", creditorAccount: { iban: "LT601010012345678901" } } }),
        '"bankPaymentMethod.creditorName" is required',
      ],
      [
        paymentBody({ bankPaymentMethod: { endToEndId: "1", creditorName: "Shop", creditorAccount: { iban: "LT601010012345678900" } } }),
        '"bankPaymentMethod.creditorAccount.iban" must be a valid IBAN',
      ],
      [paymentBody({ identifier: { email: "not-an-email" } }), '"identifier.email" must be a valid email'],
      [[1, 2], '"value" must be of type object'],
    ];
    for (const [body, message] of cases) {
      const { status, json } = await initiate(s.api, { body });
      expect({ status, data: json.data }).toEqual({ status: 400, data: message });
    }
  });

  it("refuses a body that is not JSON", async () => {
    const response = await fetch(`${s.api}/pis/payment`, {
      method: "POST",
      headers: { ...credentials, "Redirect-URL": "https://shop.example/r" },
      body: "amount=1",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { name: "InvalidPaymentData" }, data: '"value" must be of type object' });
  });
});

describe("payment reads", () => {
  it("returns the full payment and its status with the key `group`", async () => {
    const { id } = await createPayment(s.api, {
      body: paymentBody({
        bankPaymentMethod: {
          endToEndId: "E2E-7",
          creditorName: "Demo Shop UAB",
          creditorAccount: { iban: "LT60 1010 0123 4567 8901" },
          informationStructured: { reference: "00220055", referenceType: "SCOR" },
        },
      }),
    });
    const payment = await getJson(`${s.api}/pis/payment/${id}`);
    expect(payment).toEqual({
      status: 200,
      json: {
        id,
        bankStatus: "STRD",
        statusGroup: "started",
        amount: "12.30",
        currencyCode: "EUR",
        description: "Order 1042",
        bankPaymentMethod: {
          creditorName: "Demo Shop UAB",
          endToEndId: "E2E-7",
          informationStructured: { reference: "00220055", referenceType: "SCOR" },
          creditorAccount: { iban: "LT601010012345678901", currencyCode: "EUR" },
          paymentProduct: "DOMESTIC_SEPA_CREDIT_TRANSFERS",
          requestedExecutionDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        },
      },
    });
    expect(await getJson(`${s.api}/pis/payment/${id}/status`)).toEqual({ status: 200, json: { bankStatus: "STRD", group: "started" } });
  });

  it("shows bankPaymentMethod.bankId when the bank was chosen at initiation", async () => {
    const { id } = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND&redirectPreferred=true" });
    const { json } = await getJson(`${s.api}/pis/payment/${id}`);
    expect(json).toMatchObject({ bankPaymentMethod: { bankId: "SEB_LT_SAND" } });
    expect(json).not.toHaveProperty("bankPaymentMethod.debtorAccount");
  });

  it("answers 404 with the envelope for an unknown payment", async () => {
    const missing = "0".repeat(40);
    for (const url of [`${s.api}/pis/payment/${missing}`, `${s.api}/pis/payment/${missing}/status`]) {
      const { status, json } = await getJson(url);
      expect(status).toBe(404);
      expect(json).toEqual({ error: { code: 10004, name: "NotFound", description: "Payment not found." }, data: {} });
    }
  });
});

describe("console", () => {
  it("lists payments on the sandbox's front page", async () => {
    const { id } = await createPayment(s.api);
    const response = await fetch(s.baseUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toContain(id);
    expect(html).toContain("12.30 EUR");
  });
});
