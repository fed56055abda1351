/**
 * Recorded responses, written from provider-api.md section 4 (field names and shapes of the real
 * API; values anonymised). Used by the tests that play the provider with a local node:http server,
 * for shapes the sandbox may not produce.
 */

export const PAYMENT_ID = "e1bb2c0d4a6b8f1e3c5d7a9b0c2e4f6a8b0d7180";

/** 4.1, v0.3: every field the JVM client knows. */
export const BANK_V03 = {
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

/** ADR 6: v0.1/v0.2 banks carry only the first seven fields. */
export const BANK_V01 = {
  id: "SEB_LT",
  name: "SEB",
  officialName: "AB SEB bankas",
  countryCode: "LT",
  isSandbox: false,
  imageUri: "https://cdn.kevin.eu/banks/images/SEB.png",
  bic: "CBVILT2X",
};

/** 4.4 */
export const INITIATED_BANK = {
  id: PAYMENT_ID,
  bankStatus: "STRD",
  statusGroup: "started",
  confirmLink: `https://psd2.kevin.eu/login/${PAYMENT_ID}`,
};
export const INITIATED_CARD = {
  id: PAYMENT_ID,
  hybridStatus: "created",
  statusGroup: "started",
  confirmLink: `https://psd2.kevin.eu/login/${PAYMENT_ID}`,
};
/** ADR 6, v0.1: the bank code is `status`. */
export const INITIATED_V01 = {
  id: PAYMENT_ID,
  status: "STRD",
  statusGroup: "started",
  confirmLink: `https://psd2.kevin.eu/login/${PAYMENT_ID}`,
};

/** 4.3: the 2021 capture of a completed bank payment, amount as the JSON number it printed as. */
export const PAYMENT_RAW = `{"id":"${PAYMENT_ID}","bankStatus":"ACSC","statusGroup":"completed","amount":0.10,"currencyCode":"EUR","description":"Order 1","bankPaymentMethod":{"creditorName":"Shop","endToEndId":"1","informationStructured":null,"creditorAccount":{"iban":"LT601010012345678901","currencyCode":"EUR"},"debtorAccount":{"iban":"LT121000011101001000","currencyCode":"XXX"},"bankId":"SWEDBANK_LT","paymentProduct":"DOMESTIC_SEPA_CREDIT_TRANSFERS","requestedExecutionDate":"2021-10-06T14:40:44.000Z"}}`;

/** v0.1 GET payment: flat bank fields and `status` (ADR 6; the field set is the flat request body's). */
export const PAYMENT_V01 = {
  id: PAYMENT_ID,
  status: "ACSC",
  statusGroup: "completed",
  amount: "12.50",
  currencyCode: "EUR",
  endToEndId: "order-42",
  informationUnstructured: "Order 42",
  creditorName: "Demo Shop UAB",
  creditorAccount: { iban: "LT601010012345678901" },
};

/** 3 #13: `group`, not `statusGroup`; `error.code` is a list. */
export const STATUS_CANCELLED = { bankStatus: "CANC", group: "failed", error: { code: [21004] } };
export const STATUS_CARD = { cardStatus: "payment_success", group: "completed" };
export const STATUS_HYBRID_EXPIRED = { hybridStatus: "expired", group: "failed" };
export const STATUS_V01 = { status: "ACSP", group: "pending" };

/** 4.5: integer id, amount decimal string. */
export const REFUND = {
  id: 1,
  paymentId: PAYMENT_ID,
  amount: "5.00",
  statusGroup: "pending",
  webhookUrl: "https://shop.example/webhooks/refunds",
  createdAt: "2021-11-02T10:15:30.000Z",
};

/** 4.6 */
export const SETTINGS = {
  scopes: ["payments", "accounts_details"],
  isSandbox: true,
  paymentMethods: ["bank", "card"],
  allowedRefundsFor: ["bank"],
  forceRedirectToBankMode: "none",
  cardRefundDayLimit: 180,
  bankRefundDayLimit: 90,
  redirectPreferred: false,
  skipPaymentSCA: false,
  webhookDelayInSec: 0,
  paymentExpiresTmoInSec: 604800,
  statusSettings: { isACSPCompletedStatus: false },
};

/** 4.7 */
export const AUTH_STARTED = { authorizationLink: "https://psd2.kevin.eu/login?state=123", state: "123" };

/** 4.8 */
export const TOKEN = {
  authId: "0f9a1b2c-3d4e-4f50-8a61-72839405a6b7",
  tokenType: "Bearer",
  accessToken: "access-token-1",
  accessTokenExpiresIn: 3600000,
  refreshToken: "refresh-token-1",
  refreshTokenExpiresIn: 7776000000,
};

/** 3 #10 */
export const TOKEN_CONTENT = { clientConsent: true, expiresIn: 3599000, bankName: "Swedbank", bankId: "SWEDBANK_LT" };

/** 4.9 */
export const ACCOUNT = {
  id: "acc-1",
  iban: "LT121000011101001000",
  type: "CACC",
  currencyCode: "EUR",
  name: "Main account",
};
export const ACCOUNT_DETAILS = {
  iban: "LT121000011101001000",
  type: "CACC",
  currencyCode: "EUR",
  name: "Main account",
  status: "enabled",
};
export const TRANSACTION = {
  id: "tx-1",
  isBooked: true,
  amount: "-12.30",
  currencyCode: "EUR",
  counterPartyName: "Demo Shop UAB",
  counterPartyAccount: { iban: "LT601010012345678901" },
  informationStructured: { type: "SCOR", reference: "00220055" },
  informationUnstructured: "Order 42",
  bookingDate: "2021-09-01",
  valueDate: "2021-09-01",
};
export const BALANCE = { type: "closingBooked", amount: "1024.07", currencyCode: "EUR" };

/** 6 */
export const ERROR_INVALID_COUNTRY = {
  error: { code: 10015, name: "InvalidCountryCode", description: "Invalid country code." },
  data: {},
};
export const ERROR_INVALID_AMOUNT = {
  error: { code: 10021, name: "InvalidPaymentData", description: "Invalid payment data." },
  data: '"amount" must be a number',
};
