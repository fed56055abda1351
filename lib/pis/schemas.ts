import { z } from "zod";

/**
 * Zod schemas of the provider's responses (provider-api.md section 4). Objects are not strict:
 * the provider may add fields at any time, and we must not break on them (unknown keys are
 * dropped from the output). Fields we rely on are checked closely: 40-hex payment ids, the status
 * group, `group` on the status response, integer refund ids, `isBeta` on v0.3 banks, the
 * `{data: [...]}` wrapper on lists and bare objects elsewhere.
 */

export const paymentId = z.string().regex(/^[0-9a-f]{40}$/, "must be 40 lowercase hex characters");
export const statusGroup = z.enum(["started", "pending", "completed", "failed"]);
export type StatusGroup = z.infer<typeof statusGroup>;

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Money is a decimal string at every edge (ADR 4). The reference cannot tell whether the provider
 * sends `amount` as a string or a JSON number (provider-api.md 14.4). The transport rewrites a
 * numeric `amount` into the digits the provider wrote before JSON.parse (so "12.50" stays "12.50");
 * a number that still reaches this schema (a caller parsing by hand) is turned into text with
 * `toString()`, which for fewer than 16 significant digits reads back as the same decimal, minus
 * trailing zeros. Larger numbers cannot be trusted and are refused.
 */
export const decimalAmount = z.union([z.string(), z.number()]).transform((value, ctx) => {
  if (typeof value === "number" && Math.abs(value) >= 1e15) {
    ctx.addIssue({ code: "custom", message: "is a number too large to read exactly" });
    return z.NEVER;
  }
  const text = typeof value === "number" ? value.toString() : value;
  if (!DECIMAL.test(text)) {
    ctx.addIssue({ code: "custom", message: "must be a decimal amount such as 12.50" });
    return z.NEVER;
  }
  return text;
});

/** Lenient on purpose: an error is an error whatever its body; we keep what we can read. */
export const errorEnvelope = z.object({
  error: z
    .object({
      code: z.number().int().optional().catch(undefined),
      name: z.string().optional().catch(undefined),
      description: z.string().optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  data: z.unknown().optional(),
});

export const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

// ---------------------------------------------------------------------------------------------
// Banks (4.1)

const scaApproaches = z.object({
  AIS: z.array(z.string()).optional(),
  PIS: z.array(z.string()).optional(),
  AUTH: z.array(z.string()).optional(),
});

const bankFields = {
  id: z.string().min(1),
  name: z.string(),
  officialName: z.string().nullish(),
  countryCode: z.string().length(2),
  isSandbox: z.boolean(),
  imageUri: z.string().nullish(),
  bic: z.string().nullish(),
  hasSavingsBanks: z.boolean().optional(),
  isSavingsBank: z.boolean().optional(),
  isAccountLinkingSupported: z.boolean().optional(),
  scaApproaches: scaApproaches.optional(),
};

/** A v0.3 bank: `isBeta` is required (not `isBetaFeature`, a name seen in unofficial code). */
export const bank = z.object({ ...bankFields, isBeta: z.boolean() });

/** A v0.1/v0.2 bank (ADR 6): the later flags, `isBeta` among them, are not sent. */
export const legacyBank = z.object({ ...bankFields, isBeta: z.boolean().optional() });

/**
 * One type for every version, so callers never branch on it: `isBeta`, `hasSavingsBanks`,
 * `isSavingsBank`, `isAccountLinkingSupported` and `scaApproaches` are absent before v0.3.
 */
export type Bank = z.infer<typeof legacyBank>;

export const countryCodeList = list(z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code"));

// ---------------------------------------------------------------------------------------------
// Statuses. v0.1 reports the bank code as `status`; later versions as `bankStatus`, `cardStatus`
// or `hybridStatus` (ADR 6). The v0.1 `status` is moved into `bankStatus` here, so everything
// after the parse sees one vocabulary (and `status` is free for the normalised status).

const statusFields = {
  bankStatus: z.string().optional(),
  cardStatus: z.string().optional(),
  hybridStatus: z.string().optional(),
  status: z.string().optional(),
};

function withoutLegacyStatus<T extends { status?: string; bankStatus?: string }>(o: T): Omit<T, "status"> {
  const { status, ...rest } = o;
  return status !== undefined && rest.bankStatus === undefined ? { ...rest, bankStatus: status } : rest;
}

export const initiatePaymentResponse = z
  .object({
    id: paymentId,
    statusGroup,
    confirmLink: z.url({ protocol: /^https?$/ }).optional(),
    ...statusFields,
  })
  .transform(withoutLegacyStatus);
export type InitiatePaymentResponse = z.infer<typeof initiatePaymentResponse>;

/** GET /pis/payment/{id}/status: the key is `group`, not `statusGroup`. */
export const paymentStatus = z
  .object({
    group: statusGroup,
    ...statusFields,
    error: z.object({ code: z.array(z.number().int()) }).nullish(),
  })
  .transform(withoutLegacyStatus);
export type PaymentStatus = z.infer<typeof paymentStatus>;

// ---------------------------------------------------------------------------------------------
// Payment (4.3)

const accountRef = z.object({
  iban: z.string().nullish(),
  bban: z.string().nullish(),
  sortCodeAccountNumber: z.string().nullish(),
  currencyCode: z.string().nullish(),
});
export type AccountReference = z.infer<typeof accountRef>;

// The real API has been seen sending an empty value here when nothing was given.
const informationStructured = z.preprocess(
  (v) => (v === "" ? null : v),
  z.object({ reference: z.string().nullish(), referenceType: z.string().nullish() }).nullish(),
);

const bankPaymentMethod = z.object({
  creditorName: z.string().nullish(),
  endToEndId: z.string().nullish(),
  informationStructured,
  creditorAccount: accountRef.nullish(),
  debtorAccount: accountRef.nullish(),
  bankId: z.string().nullish(),
  paymentProduct: z.string().nullish(),
  requestedExecutionDate: z.string().nullish(),
});
export type BankPaymentMethod = z.infer<typeof bankPaymentMethod>;

export const payment = z
  .object({
    id: paymentId,
    statusGroup,
    ...statusFields,
    amount: decimalAmount,
    currencyCode: z.string(),
    description: z.string().nullish(),
    bankPaymentMethod: bankPaymentMethod.nullish(),
    // One plugin reads a top-level bankId (provider-api.md 4.3); kept when sent.
    bankId: z.string().nullish(),
    // The flat v0.1/v0.2 shape, folded into bankPaymentMethod below.
    endToEndId: z.string().nullish(),
    informationUnstructured: z.string().nullish(),
    informationStructured,
    creditorName: z.string().nullish(),
    creditorAccount: accountRef.nullish(),
    debtorAccount: accountRef.nullish(),
    requestedExecutionDate: z.string().nullish(),
  })
  .transform((raw) => {
    const {
      endToEndId,
      informationUnstructured,
      informationStructured: info,
      creditorName,
      creditorAccount,
      debtorAccount,
      requestedExecutionDate,
      ...rest
    } = withoutLegacyStatus(raw);
    const flat: BankPaymentMethod = {
      endToEndId,
      creditorName,
      creditorAccount,
      debtorAccount,
      informationStructured: info,
      requestedExecutionDate,
    };
    const hasFlat = Object.values(flat).some((v) => v !== undefined && v !== null);
    return {
      ...rest,
      description: rest.description ?? informationUnstructured,
      // Callers read bank details in one place whatever the version answered with.
      bankPaymentMethod: rest.bankPaymentMethod ?? (hasFlat ? flat : undefined),
    };
  });
export type Payment = z.infer<typeof payment>;

// ---------------------------------------------------------------------------------------------
// Refunds (4.5)

export const refund = z.object({
  id: z.number().int(),
  paymentId,
  amount: decimalAmount,
  statusGroup,
  webhookUrl: z.string().nullish(),
  createdAt: z.string().nullish(),
});
export type Refund = z.infer<typeof refund>;

// ---------------------------------------------------------------------------------------------
// Project (3 #5, 4.6)

export const paymentMethodList = list(z.string());

export const projectSettings = z.object({
  isSandbox: z.boolean(),
  paymentMethods: z.array(z.string()),
  allowedRefundsFor: z.array(z.string()).nullable(),
  bankRefundDayLimit: z.number().int(),
  cardRefundDayLimit: z.number().int(),
  scopes: z.array(z.string()).optional(),
  forceRedirectToBankMode: z.string().optional(),
  redirectPreferred: z.boolean().optional(),
  skipPaymentSCA: z.boolean().optional(),
  webhookDelayInSec: z.number().int().optional(),
  paymentExpiresTmoInSec: z.number().int().optional(),
  statusSettings: z.object({ isACSPCompletedStatus: z.boolean().optional() }).optional(),
});
/** `forceRedirectToBankMode` is one of "soft" | "hard" | "none" as far as known. */
export type ProjectSettings = z.infer<typeof projectSettings>;

// ---------------------------------------------------------------------------------------------
// Auth (3 #7-#10, 4.7, 4.8)

export const authStart = z.object({
  authorizationLink: z.url({ protocol: /^https?$/ }),
  state: z.string().min(1),
});
export type AuthStart = z.infer<typeof authStart>;

/** Units of the two `…ExpiresIn` are unconfirmed (a demo treats them as milliseconds). */
export const token = z.object({
  authId: z.string().nullish(),
  tokenType: z.string(),
  accessToken: z.string().min(1),
  accessTokenExpiresIn: z.number().int(),
  refreshToken: z.string().min(1),
  refreshTokenExpiresIn: z.number().int(),
});
export type Token = z.infer<typeof token>;

export const tokenContent = z.object({
  clientConsent: z.boolean(),
  expiresIn: z.number().int(),
  bankName: z.string(),
  bankId: z.string(),
});
export type TokenContent = z.infer<typeof tokenContent>;

// ---------------------------------------------------------------------------------------------
// Account information (4.9)

export const account = z.object({
  id: z.string().nullish(),
  iban: z.string().nullish(),
  bban: z.string().nullish(),
  paym: z.string().nullish(),
  pan: z.string().nullish(),
  sortCodeAccountNumber: z.string().nullish(),
  type: z.string().nullish(),
  currencyCode: z.string(),
  name: z.string().nullish(),
});
export type Account = z.infer<typeof account>;

export const accountDetails = z.object({
  iban: z.string(),
  type: z.string().nullish(),
  currencyCode: z.string(),
  name: z.string(),
  status: z.string(),
});
export type AccountDetails = z.infer<typeof accountDetails>;

export const transaction = z.object({
  id: z.string().nullish(),
  isBooked: z.boolean(),
  amount: decimalAmount,
  currencyCode: z.string(),
  counterPartyName: z.string().nullish(),
  counterPartyAccount: z
    .object({
      iban: z.string().nullish(),
      bban: z.string().nullish(),
      pan: z.string().nullish(),
      sortCodeAccountNumber: z.string().nullish(),
    })
    .nullish(),
  informationStructured: z.object({ type: z.string().nullish(), reference: z.string().nullish() }).nullish(),
  informationUnstructured: z.string().nullish(),
  bookingDate: z.string().nullish(),
  valueDate: z.string().nullish(),
});
export type Transaction = z.infer<typeof transaction>;

/** Known balance types; kept open so a new type from the provider does not break the parse. */
export type BalanceType =
  | "closingBooked"
  | "expected"
  | "authorised"
  | "openingBooked"
  | "interimAvailable"
  | "interimBooked"
  | "forwardAvailable"
  | "nonInvoiced"
  | (string & {});

export const balance = z.object({
  type: z.string() as z.ZodType<BalanceType>,
  amount: decimalAmount,
  currencyCode: z.string(),
});
export type Balance = z.infer<typeof balance>;
