import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPayment,
  credentials,
  flatPaymentBody,
  getJson,
  initiate,
  nocardCredentials,
  paymentBody,
  payAtBank,
  postJson,
  startAuth,
  startSandbox,
  type RunningSandbox,
} from "./test-helpers";
import { API_VERSIONS } from "./versions";
import { listBanks } from "./banks";

let s: RunningSandbox;

beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.sandbox.close();
});

type Bank = Record<string, unknown> & { id: string; countryCode: string; imageUri: string };
const notFound = (what: string) => ({
  error: { code: 10004, name: "NotFound", description: `${what} not found.` },
  data: {},
});

describe("countries and banks", () => {
  it("lists the countries in every version", async () => {
    for (const version of API_VERSIONS) {
      expect(await getJson(`${s.v(version)}/auth/countries`)).toEqual({
        status: 200,
        json: { data: ["LT", "LV", "EE"] },
      });
    }
  });

  it("lists the test banks of one country in the v0.3 Bank shape", async () => {
    const { status, json } = await getJson(`${s.api}/auth/banks?countryCode=LT`);
    expect(status).toBe(200);
    const banks = (json as { data: Bank[] }).data;
    expect(banks.length).toBeGreaterThanOrEqual(4);
    expect(banks.every((b) => b.countryCode === "LT")).toBe(true);
    expect(banks.find((b) => b.id === "SWEDBANK_LT_SAND")).toEqual({
      id: "SWEDBANK_LT_SAND",
      name: "Swedbank",
      officialName: expect.any(String),
      scaApproaches: { AIS: ["REDIRECT"], PIS: ["REDIRECT"], AUTH: ["REDIRECT"] },
      countryCode: "LT",
      isSandbox: true,
      imageUri: `${s.baseUrl}/logos/SWEDBANK_LT_SAND.png`,
      bic: "HABALT22",
      isBeta: false,
      hasSavingsBanks: false,
      isSavingsBank: false,
      isAccountLinkingSupported: true,
    });
  });

  it("shows only the early Bank fields in v0.1 and v0.2", async () => {
    for (const version of ["v0.1", "v0.2"] as const) {
      const list = (await getJson(`${s.v(version)}/auth/banks?countryCode=LV`)).json as { data: Bank[] };
      expect(Object.keys(list.data[0] ?? {}).sort()).toEqual([
        "bic",
        "countryCode",
        "id",
        "imageUri",
        "isSandbox",
        "name",
        "officialName",
      ]);
      const one = await getJson(`${s.v(version)}/auth/banks/SEB_LT_SAND`);
      expect(one.json).toEqual({
        id: "SEB_LT_SAND",
        name: "SEB",
        officialName: "AB SEB bankas",
        countryCode: "LT",
        isSandbox: true,
        imageUri: `${s.baseUrl}/logos/SEB_LT_SAND.png`,
        bic: "CBVILT2X",
      });
    }
  });

  it("lists every bank without a country, and an empty list for a valid country without test banks", async () => {
    const all = (await getJson(`${s.api}/auth/banks`)).json as { data: Bank[] };
    expect(new Set(all.data.map((b) => b.countryCode))).toEqual(new Set(["LT", "LV", "EE"]));
    expect(all.data).toHaveLength(15);
    expect(await getJson(`${s.api}/auth/banks?countryCode=DE`)).toEqual({ status: 200, json: { data: [] } });
  });

  it("refuses a malformed country code with InvalidCountryCode in every version", async () => {
    for (const version of API_VERSIONS) {
      for (const code of ["lt", "LTU", "L1", ""]) {
        expect(await getJson(`${s.v(version)}/auth/banks?countryCode=${code}`)).toEqual({
          status: 400,
          json: { error: { code: 10015, name: "InvalidCountryCode", description: "Invalid country code." }, data: {} },
        });
      }
    }
  });

  it("refuses a well-formed code that is not an ISO 3166-1 alpha-2 country, on banks and at initiation", async () => {
    const invalid = {
      status: 400,
      json: { error: { code: 10015, name: "InvalidCountryCode", description: "Invalid country code." }, data: {} },
    };
    for (const code of ["ZZ", "XX", "UK", "EU", "AA"]) {
      for (const version of API_VERSIONS)
        expect(await getJson(`${s.v(version)}/auth/banks?countryCode=${code}`), code).toEqual(invalid);
      expect(await initiate(s.api, { query: `?countryCode=${code}` }), code).toEqual(invalid);
      expect(await startAuth(s.api, `?scopes=payments&countryCode=${code}`), code).toEqual(invalid);
    }
    for (const code of ["GB", "AX", "SS", "BQ"])
      expect(await getJson(`${s.api}/auth/banks?countryCode=${code}`), code).toEqual({
        status: 200,
        json: { data: [] },
      });
  });

  it("returns one bank as a bare object and 404 for an unknown one", async () => {
    const one = await getJson(`${s.api}/auth/banks/LHV_EE_SAND`);
    expect(one.json).toMatchObject({ id: "LHV_EE_SAND", countryCode: "EE", isSandbox: true });
    expect(one.json).not.toHaveProperty("data");
    for (const version of API_VERSIONS)
      expect(await getJson(`${s.v(version)}/auth/banks/NOPE_LT`)).toEqual({ status: 404, json: notFound("Bank") });
  });

  it("serves every bank's imageUri as a cacheable 96x96 PNG logo", async () => {
    for (const { id } of listBanks()) {
      const uri = ((await getJson(`${s.api}/auth/banks/${id}`)).json as Bank).imageUri;
      const response = await fetch(uri);
      expect(response.status, id).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("cache-control")).toContain("max-age");
      const png = Buffer.from(await response.arrayBuffer());
      expect(png.subarray(0, 8).toString("hex"), id).toBe("89504e470d0a1a0a");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], id).toEqual([96, 96]); // IHDR width, height
    }
    expect((await fetch(`${s.baseUrl}/logos/NOPE.png`)).status).toBe(404);
  });

  it("finds the test bank of a card from its first six digits (v0.3 only)", async () => {
    expect(await getJson(`${s.api}/auth/banks/cards/411111`)).toMatchObject({
      status: 200,
      json: { id: "SWEDBANK_LT_SAND" },
    });
    expect(await getJson(`${s.api}/auth/banks/cards/4000000000003220`)).toMatchObject({
      status: 200,
      json: { id: "SEB_LT_SAND" },
    });
    expect(await getJson(`${s.api}/auth/banks/cards/999999`)).toEqual({ status: 404, json: notFound("Bank") });
    expect(await getJson(`${s.api}/auth/banks/cards/4111`)).toMatchObject({
      status: 400,
      json: { error: { name: "InvalidRequest" }, data: '"cardNumberPiece" length must be at least 6 characters long' },
    });
    expect(await getJson(`${s.api}/auth/banks/cards/41x111`)).toMatchObject({ status: 400 });
    for (const version of ["v0.1", "v0.2"] as const) {
      expect(await getJson(`${s.v(version)}/auth/banks/cards/411111`)).toEqual({
        status: 404,
        json: notFound("Route"),
      });
    }
  });

  it("answers 404 for an unknown version or route", async () => {
    expect((await getJson(`${s.baseUrl}/platform/v0.4/auth/banks`)).status).toBe(404);
    expect(await getJson(`${s.api}/auth/nothing`)).toEqual({ status: 404, json: notFound("Route") });
    expect((await getJson(`${s.baseUrl}/platform/`)).status).toBe(404);
  });
});

describe("frame endpoints (the hosted page and the mobile SDKs)", () => {
  const frame = (path: string) => getJson(`${s.baseUrl}/platform/frame${path}`, {});

  it("list countries and banks for a payment id or a linking state, without Client-Id / Client-Secret", async () => {
    const { id } = await createPayment(s.api);
    const { state } = (await startAuth(s.api, "?scopes=payments")).json;
    const countries = await getJson(`${s.api}/auth/countries`);
    for (const token of [id, String(state)]) {
      expect(await frame(`/countries/${token}`)).toEqual(countries);
      // The SDKs' bank (AND ApiBank) needs isBeta, a v0.3 field: the frame lists v0.3 banks.
      expect(await frame(`/banks/${token}?countryCode=LV`)).toEqual(
        await getJson(`${s.api}/auth/banks?countryCode=LV`),
      );
      expect(await frame(`/banks/${token}`)).toEqual(await getJson(`${s.api}/auth/banks`));
      expect(await frame(`/banks/${token}?countryCode=ZZ`)).toMatchObject({
        status: 400,
        json: { error: { code: 10015, name: "InvalidCountryCode" } },
      });
    }
  });

  it("answer 404 NotFound for an unknown token, and for other paths", async () => {
    for (const path of [`/countries/${"f".repeat(40)}`, `/banks/${"f".repeat(40)}?countryCode=LT`]) {
      expect(await frame(path)).toEqual({ status: 404, json: notFound("Payment or account link") });
    }
    const { id } = await createPayment(s.api);
    for (const path of ["/countries", "/banks", `/banks/${id}/LT`, `/payments/${id}`])
      expect(await frame(path), path).toEqual({ status: 404, json: notFound("Route") });
    expect((await postJson(`${s.baseUrl}/platform/frame/countries/${id}`, {}, {})).status).toBe(404);
  });
});

describe("project: payment methods and settings (v0.3)", () => {
  it("follow the project: bank and card for the default project, bank only for the no-card one", async () => {
    expect(await getJson(`${s.api}/auth/paymentMethods`)).toEqual({ status: 200, json: { data: ["bank", "card"] } });
    expect(await getJson(`${s.api}/auth/paymentMethods`, nocardCredentials)).toEqual({
      status: 200,
      json: { data: ["bank"] },
    });
  });

  it("answers /auth/project/settings in the shape of provider-api.md 4.6", async () => {
    expect(await getJson(`${s.api}/auth/project/settings`)).toEqual({
      status: 200,
      json: {
        scopes: [
          "payments",
          "payments_pos",
          "accounts_basic",
          "accounts_details",
          "accounts_balances",
          "accounts_transactions",
        ],
        isSandbox: true,
        paymentMethods: ["bank", "card"],
        allowedRefundsFor: ["bank", "card"],
        forceRedirectToBankMode: "none",
        cardRefundDayLimit: 180,
        bankRefundDayLimit: 365,
        redirectPreferred: false,
        skipPaymentSCA: false,
        webhookDelayInSec: 0,
        paymentExpiresTmoInSec: 604800,
        statusSettings: { isACSPCompletedStatus: false },
      },
    });
    expect(await getJson(`${s.api}/auth/project/settings`, nocardCredentials)).toMatchObject({
      json: { scopes: ["payments"], paymentMethods: ["bank"], allowedRefundsFor: ["bank"], isSandbox: true },
    });
  });

  it("do not exist before v0.3", async () => {
    for (const version of ["v0.1", "v0.2"] as const) {
      for (const path of ["/auth/paymentMethods", "/auth/project/settings"]) {
        expect(await getJson(`${s.v(version)}${path}`)).toEqual({ status: 404, json: notFound("Route") });
      }
    }
  });
});

describe("credentials", () => {
  const unauthorized = { error: { code: 10001, name: "Unauthorized", description: expect.any(String) }, data: {} };

  it("refuses every endpoint without credentials or with a wrong secret, in every version", async () => {
    const paths = [
      "/auth/countries",
      "/auth/banks",
      "/auth/banks/SEB_LT_SAND",
      `/pis/payment/${"0".repeat(40)}`,
      "/auth/nothing",
    ];
    for (const version of API_VERSIONS) {
      for (const path of paths) {
        expect(await getJson(`${s.v(version)}${path}`, {})).toEqual({ status: 401, json: unauthorized });
        expect(await getJson(`${s.v(version)}${path}`, { ...credentials, "Client-Secret": "wrong" })).toEqual({
          status: 401,
          json: unauthorized,
        });
        expect(
          await getJson(`${s.v(version)}${path}`, {
            ...nocardCredentials,
            "Client-Secret": credentials["Client-Secret"],
          }),
        ).toEqual({
          status: 401,
          json: unauthorized,
        });
      }
    }
    expect(await initiate(s.api, { headers: { "Client-Secret": "" } })).toEqual({ status: 401, json: unauthorized });
  });

  it("hides one project's payments from another project", async () => {
    const { id } = await createPayment(s.api);
    expect((await getJson(`${s.api}/pis/payment/${id}`, nocardCredentials)).status).toBe(404);
    expect((await getJson(`${s.api}/pis/payment/${id}/status`, nocardCredentials)).status).toBe(404);
    expect((await getJson(`${s.api}/pis/payment/${id}`)).status).toBe(200);
  });
});

describe("payment initiation (v0.3)", () => {
  it("starts a payment: 40-hex id, STRD/started and a confirmLink carrying lang and countryCode", async () => {
    const { status, json } = await initiate(s.api, { query: "?lang=lt&countryCode=LV" });
    expect(status).toBe(200);
    expect(json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      bankStatus: "STRD",
      statusGroup: "started",
      confirmLink: `${s.baseUrl}/login/${String(json.id)}?lang=lt&countryCode=LV`,
    });
    expect((await initiate(s.api, { query: "?countryCode=lv" })).json).toMatchObject({
      error: { name: "InvalidCountryCode" },
    });
  });

  it("uses the configured public URL in confirmLink and imageUri", async () => {
    const other = await startSandbox({ publicUrl: "https://sandbox.example.test/" });
    try {
      const { json } = await initiate(other.api);
      expect(json.confirmLink).toBe(`https://sandbox.example.test/login/${String(json.id)}`);
      expect(((await getJson(`${other.api}/auth/banks/SEB_LT_SAND`)).json as Bank).imageUri).toBe(
        "https://sandbox.example.test/logos/SEB_LT_SAND.png",
      );
    } finally {
      await other.sandbox.close();
    }
  });

  it("refuses a missing, relative or non-http Redirect-URL with InvalidRedirect", async () => {
    for (const redirectUrl of ["", "/return", "ftp://shop.example/x", "javascript:alert(1)", "not a url"]) {
      const { status, json } = await initiate(s.api, { redirectUrl });
      expect(status).toBe(400);
      expect(json).toEqual({
        error: { code: 10016, name: "InvalidRedirect", description: expect.any(String) },
        data: {},
      });
    }
  });

  it("refuses a malformed Webhook-URL, an unknown bankId and a non-boolean redirectPreferred", async () => {
    expect((await initiate(s.api, { webhookUrl: "hooks/pis" })).json).toMatchObject({
      error: { name: "InvalidWebhookUrl", code: 10017 },
    });
    expect((await initiate(s.api, { query: "?bankId=NOPE_LT" })).json).toMatchObject({
      error: { name: "InvalidBankId", code: 10018 },
    });
    expect((await initiate(s.api, { query: "?redirectPreferred=yes" })).json).toMatchObject({
      error: { name: "InvalidRequest", code: 10019 },
      data: '"redirectPreferred" must be a boolean',
    });
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
      expect(json).toEqual({
        error: { code: 10021, name: "InvalidPaymentData", description: expect.any(String) },
        data: message,
      });
    }
    expect((await initiate(s.api, { body: paymentBody({ amount: "0.01" }) })).status).toBe(200);
    expect((await initiate(s.api, { body: paymentBody({ amount: "1500" }) })).status).toBe(200);
  });

  it("names the first invalid field in a Joi-style message", async () => {
    const { description: _d, ...withoutDescription } = paymentBody();
    const cases: [unknown, string][] = [
      [withoutDescription, '"description" is required'],
      [paymentBody({ description: "" }), '"description" is not allowed to be empty'],
      [
        paymentBody({ currencyCode: "eur" }),
        '"currencyCode" with value "eur" fails to match the required pattern: /^[A-Z]{3}$/',
      ],
      [paymentBody({ bankPaymentMethod: undefined }), '"bankPaymentMethod" is required'],
      [paymentBody({ bankPaymentMethod: "x" }), '"bankPaymentMethod" must be of type object'],
      [
        paymentBody({ bankPaymentMethod: { endToEndId: "1", creditorAccount: { iban: "LT601010012345678901" } } }),
        '"bankPaymentMethod.creditorName" is required',
      ],
      [
        paymentBody({
          bankPaymentMethod: {
            endToEndId: "1",
            creditorName: "Shop",
            creditorAccount: { iban: "LT601010012345678900" },
          },
        }),
        '"bankPaymentMethod.creditorAccount.iban" must be a valid IBAN',
      ],
      [
        paymentBody({
          bankPaymentMethod: {
            endToEndId: "x".repeat(34),
            creditorName: "Shop",
            creditorAccount: { iban: "LT601010012345678901" },
          },
        }),
        '"bankPaymentMethod.endToEndId" length must be less than or equal to 33 characters long',
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
    expect(await response.json()).toMatchObject({
      error: { name: "InvalidPaymentData" },
      data: '"value" must be of type object',
    });
  });
});

describe("payment initiation in v0.1 and v0.2", () => {
  it("v0.1 takes the flat body and reports `status`", async () => {
    const { status, json } = await initiate(s.v("v0.1"), { body: flatPaymentBody() });
    expect(status).toBe(200);
    expect(json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      status: "STRD",
      statusGroup: "started",
      confirmLink: expect.any(String),
    });
  });

  it("v0.1 validates the flat body and knows nothing of the nested one or of cards", async () => {
    expect((await initiate(s.v("v0.1"), { body: paymentBody() })).json).toMatchObject({
      error: { name: "InvalidPaymentData" },
      data: '"endToEndId" is required',
    });
    expect(
      (await initiate(s.v("v0.1"), { body: flatPaymentBody({ informationUnstructured: "" }) })).json,
    ).toMatchObject({
      data: '"informationUnstructured" is not allowed to be empty',
    });
    expect((await initiate(s.v("v0.1"), { body: flatPaymentBody({ cardPaymentMethod: {} }) })).json).toMatchObject({
      error: { name: "InvalidPaymentMethod" },
    });
  });

  // provider-api.md 11: `status` until v0.3 (the seed's changelog says v0.2; the reference wins).
  it("v0.2 takes the flat body and the nested one, and reports the bank's code as status", async () => {
    for (const body of [flatPaymentBody(), paymentBody()]) {
      const { status, json } = await initiate(s.v("v0.2"), { body });
      expect(status).toBe(200);
      expect(json).toMatchObject({ status: "STRD", statusGroup: "started" });
      expect(json).not.toHaveProperty("bankStatus");
    }
    expect((await initiate(s.v("v0.2"), { body: paymentBody({ cardPaymentMethod: {} }) })).json).toMatchObject({
      error: { code: 10020, name: "InvalidPaymentMethod", description: "Card payments need API v0.3." },
    });
    expect((await initiate(s.v("v0.2"), { query: "?paymentMethodPreferred=card", body: paymentBody() })).status).toBe(
      400,
    );
  });
});

describe("payment reads", () => {
  it("v0.3 returns the full payment and its status with the key `group`", async () => {
    const { id } = await createPayment(s.api, {
      body: paymentBody({
        bankPaymentMethod: {
          endToEndId: "E2E-7",
          creditorName: "Demo Shop UAB",
          creditorAccount: { iban: "LT60 1010 0123 4567 8901" },
          informationStructured: { reference: "00220055", referenceType: "SCOR" },
          requestedExecutionDate: "2030-01-02",
        },
      }),
    });
    expect(await getJson(`${s.api}/pis/payment/${id}`)).toEqual({
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
          requestedExecutionDate: "2030-01-02T00:00:00.000Z",
        },
      },
    });
    expect(await getJson(`${s.api}/pis/payment/${id}/status`)).toEqual({
      status: 200,
      json: { bankStatus: "STRD", group: "started" },
    });
  });

  it("v0.1 and v0.2 show the flat shape, with `status` in v0.1, and accept the PSU headers", async () => {
    const { id, confirmLink } = await createPayment(s.v("v0.1"), {
      body: flatPaymentBody(),
      query: "?bankId=SEB_LT_SAND",
    });
    await payAtBank(confirmLink);
    const psu = {
      ...credentials,
      "PSU-IP-Address": "192.0.2.10",
      "PSU-IP-Port": "443",
      "PSU-User-Agent": "php",
      "PSU-Device-ID": "d1",
    };
    const flat = {
      id,
      statusGroup: "completed",
      amount: "12.30",
      currencyCode: "EUR",
      endToEndId: "1042",
      informationUnstructured: "Order 1042",
      creditorName: "Demo Shop UAB",
      creditorAccount: { iban: "LT601010012345678901", currencyCode: "EUR" },
      debtorAccount: { iban: expect.stringMatching(/^LT\d{18}$/), currencyCode: "EUR" },
      bankId: "SEB_LT_SAND",
      paymentProduct: "DOMESTIC_SEPA_CREDIT_TRANSFERS",
      requestedExecutionDate: expect.any(String),
    };
    expect(await getJson(`${s.v("v0.1")}/pis/payment/${id}`, psu)).toEqual({
      status: 200,
      json: { ...flat, status: "ACSC" },
    });
    expect(await getJson(`${s.v("v0.2")}/pis/payment/${id}`, psu)).toEqual({
      status: 200,
      json: { ...flat, status: "ACSC" },
    });
    expect(await getJson(`${s.v("v0.1")}/pis/payment/${id}/status`, psu)).toEqual({
      status: 200,
      json: { status: "ACSC", group: "completed" },
    });
    expect(await getJson(`${s.v("v0.2")}/pis/payment/${id}/status`)).toEqual({
      status: 200,
      json: { status: "ACSC", group: "completed" },
    });
  });

  it("shows bankPaymentMethod.bankId when the bank was chosen at initiation", async () => {
    const { id } = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND&redirectPreferred=true" });
    const { json } = await getJson(`${s.api}/pis/payment/${id}`);
    expect(json).toMatchObject({ bankPaymentMethod: { bankId: "SEB_LT_SAND" } });
    expect(json).not.toHaveProperty("bankPaymentMethod.debtorAccount");
  });

  it("answers 404 with the envelope for an unknown payment, in every version", async () => {
    const missing = "0".repeat(40);
    for (const version of API_VERSIONS) {
      for (const url of [`${s.v(version)}/pis/payment/${missing}`, `${s.v(version)}/pis/payment/${missing}/status`]) {
        expect(await getJson(url)).toEqual({ status: 404, json: notFound("Payment") });
      }
    }
  });
});
