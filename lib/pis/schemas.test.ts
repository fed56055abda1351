import { describe, expect, it } from "vitest";
import {
  account,
  accountDetails,
  authStart,
  balance,
  bank,
  countryCodeList,
  decimalAmount,
  initiatePaymentResponse,
  legacyBank,
  list,
  payment,
  paymentMethodList,
  paymentStatus,
  projectSettings,
  refund,
  token,
  tokenContent,
  transaction,
} from "./schemas";
import {
  ACCOUNT,
  ACCOUNT_DETAILS,
  AUTH_STARTED,
  BALANCE,
  BANK_V01,
  BANK_V03,
  INITIATED_CARD,
  INITIATED_V01,
  PAYMENT_ID,
  PAYMENT_V01,
  REFUND,
  SETTINGS,
  STATUS_V01,
  TOKEN,
  TOKEN_CONTENT,
  TRANSACTION,
} from "./test-fixtures";

const ID = PAYMENT_ID;

describe("provider response parsing", () => {
  it("reads a bank list wrapped in data, tolerating fields we do not know", () => {
    const parsed = list(bank).parse({ data: [{ ...BANK_V03, somethingNew: 1 }] });
    expect(parsed.data[0]).toMatchObject({ id: "SWEDBANK_LT", isBeta: false, officialName: "Swedbank AB" });
  });

  it("refuses a bank list that is not wrapped in data", () => {
    expect(list(bank).safeParse([BANK_V03]).success).toBe(false);
  });

  it("reads a single bank as a bare object, and requires isBeta (not isBetaFeature)", () => {
    expect(bank.parse(BANK_V03).id).toBe("SWEDBANK_LT");
    const { isBeta: _isBeta, ...withoutIsBeta } = BANK_V03;
    expect(bank.safeParse({ ...withoutIsBeta, isBetaFeature: false }).success).toBe(false);
  });

  it("reads a v0.1/v0.2 bank without the v0.3 flags", () => {
    expect(legacyBank.parse(BANK_V01)).toEqual(BANK_V01);
    expect(bank.safeParse(BANK_V01).success).toBe(false);
  });

  it("reads a bank whose nullable fields are null", () => {
    expect(bank.parse({ ...BANK_V03, officialName: null, imageUri: null, bic: null }).officialName).toBeNull();
  });

  it("reads the country list and refuses a code that is not alpha-2", () => {
    expect(countryCodeList.parse({ data: ["LT", "LV", "EE"] }).data).toEqual(["LT", "LV", "EE"]);
    expect(countryCodeList.safeParse({ data: ["LTU"] }).success).toBe(false);
    expect(countryCodeList.safeParse(["LT"]).success).toBe(false);
  });

  it("reads the initiation response of a bank payment", () => {
    const r = initiatePaymentResponse.parse({
      id: ID,
      bankStatus: "STRD",
      statusGroup: "started",
      confirmLink: `https://psd2.kevin.eu/login/${ID}`,
    });
    expect(r).toMatchObject({ id: ID, bankStatus: "STRD", statusGroup: "started" });
  });

  it("reads the initiation response of a card payment (hybridStatus) and of v0.1 (status)", () => {
    expect(initiatePaymentResponse.parse(INITIATED_CARD)).toMatchObject({ hybridStatus: "created" });
    const v01 = initiatePaymentResponse.parse(INITIATED_V01);
    expect(v01).toMatchObject({ bankStatus: "STRD" });
    expect(v01).not.toHaveProperty("status");
  });

  it("refuses a payment id that is not 40 hex characters", () => {
    expect(initiatePaymentResponse.safeParse({ id: "123", statusGroup: "started" }).success).toBe(false);
    expect(initiatePaymentResponse.safeParse({ id: ID.toUpperCase(), statusGroup: "started" }).success).toBe(false);
    expect(
      initiatePaymentResponse.safeParse({ id: "9b2f3c1e-6a47-4f0e-9a53-0c0f4f5d2e11", statusGroup: "started" }).success,
    ).toBe(false);
  });

  it("refuses a status group it does not know", () => {
    expect(initiatePaymentResponse.safeParse({ id: ID, statusGroup: "created" }).success).toBe(false);
  });

  it("refuses a confirmLink that is not an http(s) URL", () => {
    expect(
      initiatePaymentResponse.safeParse({ id: ID, statusGroup: "started", confirmLink: "javascript:alert(1)" }).success,
    ).toBe(false);
  });

  it("reads the full payment shape, with the amount as a string whatever the wire type", () => {
    const p = payment.parse({
      id: ID,
      bankStatus: "ACSC",
      statusGroup: "completed",
      amount: 0.1,
      currencyCode: "EUR",
      description: "Order 1",
      bankPaymentMethod: {
        creditorName: "Shop",
        endToEndId: "1",
        informationStructured: null,
        creditorAccount: { iban: "LT601010012345678901", currencyCode: "EUR" },
        debtorAccount: { iban: "LT121000011101001000", currencyCode: "XXX" },
        bankId: "SWEDBANK_LT",
        paymentProduct: "DOMESTIC_SEPA_CREDIT_TRANSFERS",
        requestedExecutionDate: "2021-10-06T14:40:44.000Z",
      },
    });
    expect(p.amount).toBe("0.1");
    expect(p.bankPaymentMethod?.bankId).toBe("SWEDBANK_LT");
  });

  it("reads an empty informationStructured as absent", () => {
    const p = payment.parse({
      id: ID,
      statusGroup: "started",
      amount: "1.00",
      currencyCode: "EUR",
      bankPaymentMethod: { informationStructured: "" },
    });
    expect(p.bankPaymentMethod?.informationStructured).toBeNull();
  });

  it("folds the flat v0.1 payment into bankPaymentMethod, and its status into bankStatus", () => {
    const p = payment.parse(PAYMENT_V01);
    expect(p).toMatchObject({
      bankStatus: "ACSC",
      description: "Order 42",
      bankPaymentMethod: {
        endToEndId: "order-42",
        creditorName: "Demo Shop UAB",
        creditorAccount: { iban: "LT601010012345678901" },
      },
    });
    expect(p).not.toHaveProperty("creditorName");
    expect(p).not.toHaveProperty("status");
  });

  it("refuses an amount that is not a decimal", () => {
    for (const bad of ["1,23", "", "12.", "abc", "1e3", true]) expect(decimalAmount.safeParse(bad).success).toBe(false);
    expect(decimalAmount.safeParse(1e16).success).toBe(false);
    expect(decimalAmount.parse("-12.30")).toBe("-12.30");
  });

  it("reads the status response by its key `group`, and refuses statusGroup in its place", () => {
    expect(paymentStatus.parse({ bankStatus: "CANC", group: "failed", error: { code: [21004] } })).toMatchObject({
      group: "failed",
      error: { code: [21004] },
    });
    expect(paymentStatus.safeParse({ bankStatus: "ACSC", statusGroup: "completed" }).success).toBe(false);
  });

  it("reads the v0.1 status response {status, group}", () => {
    expect(paymentStatus.parse(STATUS_V01)).toEqual({ bankStatus: "ACSP", group: "pending" });
  });

  it("reads a refund with an integer id, and refuses any other id", () => {
    expect(refund.parse(REFUND)).toEqual(REFUND);
    expect(refund.parse({ ...REFUND, amount: 5 }).amount).toBe("5");
    expect(refund.safeParse({ ...REFUND, id: "1" }).success).toBe(false);
    expect(refund.safeParse({ ...REFUND, id: 1.5 }).success).toBe(false);
    expect(list(refund).parse({ data: [REFUND] }).data).toHaveLength(1);
  });

  it("reads the payment methods and the project settings", () => {
    expect(paymentMethodList.parse({ data: ["bank", "card"] }).data).toEqual(["bank", "card"]);
    expect(projectSettings.parse(SETTINGS)).toEqual(SETTINGS);
    expect(projectSettings.parse({ ...SETTINGS, allowedRefundsFor: null }).allowedRefundsFor).toBeNull();
    const { paymentMethods: _pm, ...withoutMethods } = SETTINGS;
    expect(projectSettings.safeParse(withoutMethods).success).toBe(false);
  });

  it("reads the auth start, token and token content", () => {
    expect(authStart.parse(AUTH_STARTED)).toEqual(AUTH_STARTED);
    expect(authStart.safeParse({ state: "1" }).success).toBe(false);
    expect(token.parse(TOKEN)).toEqual(TOKEN);
    expect(token.parse({ ...TOKEN, authId: undefined }).accessToken).toBe("access-token-1");
    expect(token.safeParse({ ...TOKEN, accessTokenExpiresIn: "3600" }).success).toBe(false);
    expect(tokenContent.parse(TOKEN_CONTENT)).toEqual(TOKEN_CONTENT);
  });

  it("reads the account information shapes", () => {
    expect(list(account).parse({ data: [ACCOUNT, { currencyCode: "EUR" }] }).data).toHaveLength(2);
    expect(accountDetails.parse(ACCOUNT_DETAILS)).toEqual(ACCOUNT_DETAILS);
    expect(transaction.parse(TRANSACTION)).toEqual(TRANSACTION);
    expect(transaction.parse({ isBooked: false, amount: "1.00", currencyCode: "EUR" }).isBooked).toBe(false);
    expect(balance.parse(BALANCE)).toEqual(BALANCE);
    expect(balance.parse({ ...BALANCE, type: "somethingNew" }).type).toBe("somethingNew");
    expect(transaction.safeParse({ ...TRANSACTION, isBooked: "yes" }).success).toBe(false);
  });
});
