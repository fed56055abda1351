import { describe, expect, it } from "vitest";
import { bank, initiatePaymentResponse, list, payment, paymentStatus } from "./schemas";

// Shapes written from provider-api.md section 4 (recorded responses of the real API).
const SWEDBANK = {
  id: "SWEDBANK_LT",
  name: "Swedbank",
  officialName: "Swedbank AB",
  countryCode: "LT",
  isSandbox: false,
  imageUri: "https://cdn.kevin.eu/banks/images/SWEDBANK.png",
  bic: "HABALT22",
  isBeta: false,
  hasSavingsBanks: false,
  isSavingsBank: false,
  isAccountLinkingSupported: true,
  scaApproaches: { AIS: ["REDIRECT"], PIS: ["REDIRECT", "DECOUPLED"], AUTH: ["REDIRECT"] },
};
const ID = "e1bb2c0d4a6b8f1e3c5d7a9b0c2e4f6a8b0d7180";

describe("provider response parsing", () => {
  it("reads a bank list wrapped in data, tolerating fields we do not know", () => {
    const parsed = list(bank).parse({ data: [{ ...SWEDBANK, somethingNew: 1 }] });
    expect(parsed.data[0]).toMatchObject({ id: "SWEDBANK_LT", isBeta: false, officialName: "Swedbank AB" });
  });

  it("refuses a bank list that is not wrapped in data", () => {
    expect(list(bank).safeParse([SWEDBANK]).success).toBe(false);
  });

  it("reads a single bank as a bare object, and requires isBeta (not isBetaFeature)", () => {
    expect(bank.parse(SWEDBANK).id).toBe("SWEDBANK_LT");
    const { isBeta: _isBeta, ...withoutIsBeta } = SWEDBANK;
    expect(bank.safeParse({ ...withoutIsBeta, isBetaFeature: false }).success).toBe(false);
  });

  it("reads the initiation response of a bank payment", () => {
    const r = initiatePaymentResponse.parse({ id: ID, bankStatus: "STRD", statusGroup: "started", confirmLink: `https://psd2.kevin.eu/login/${ID}` });
    expect(r).toMatchObject({ id: ID, bankStatus: "STRD", statusGroup: "started" });
  });

  it("refuses a payment id that is not 40 hex characters", () => {
    expect(initiatePaymentResponse.safeParse({ id: "123", statusGroup: "started" }).success).toBe(false);
  });

  it("refuses a status group it does not know", () => {
    expect(initiatePaymentResponse.safeParse({ id: ID, statusGroup: "created" }).success).toBe(false);
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

  it("reads the status response by its key `group`, and refuses statusGroup in its place", () => {
    expect(paymentStatus.parse({ bankStatus: "CANC", group: "failed", error: { code: [21004] } })).toMatchObject({ group: "failed", error: { code: [21004] } });
    expect(paymentStatus.safeParse({ bankStatus: "ACSC", statusGroup: "completed" }).success).toBe(false);
  });
});
