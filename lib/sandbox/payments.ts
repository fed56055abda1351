import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ApiCall } from "./call";
import { bearerLinking, requireScope } from "./auth";
import { findBank } from "./banks";
import { appendQuery, apiErrors, readBody } from "./http";
import { booleanQuery, checkRedirectUrl, checkWebhookUrl, hostedPageQuery } from "./params";
import { settingsOf } from "./projects";
import { statusField } from "./statuses";
import type { PaymentRecord, StatusKind } from "./store";
import { accountsOf } from "./users";
import { account, amount, currencyCode, isoDate, parseValue, text } from "./validation";
import { supports, type ApiVersion } from "./versions";

// ---------------------------------------------------------------------------------------------
// Request bodies: v0.3 nests the bank details in `bankPaymentMethod`, v0.1 sends them flat, v0.2
// takes either (ADR 6).

const informationStructured = z.object({ reference: text, referenceType: text.optional() });
const identifier = z
  .object({
    email: z
      .email({ error: (issue) => (issue.code === "invalid_format" ? "must be a valid email" : undefined) })
      .optional(),
  })
  .optional();

const nestedBody = z.object({
  amount,
  currencyCode,
  description: text,
  bankPaymentMethod: z.object({
    // At most 33 characters: a third-party client documents this limit of the real API.
    endToEndId: text.max(33),
    creditorName: text,
    creditorAccount: account,
    debtorAccount: account.optional(),
    informationStructured: informationStructured.optional(),
    requestedExecutionDate: isoDate.optional(),
  }),
  // `{}` enables the card and hybrid flows; the legacy card fields are accepted and ignored.
  cardPaymentMethod: z.looseObject({}).optional(),
  identifier,
});

const flatBody = z.object({
  amount,
  currencyCode,
  endToEndId: text.max(33),
  informationUnstructured: text,
  creditorName: text,
  creditorAccount: account,
  debtorAccount: account.optional(),
  informationStructured: informationStructured.optional(),
  requestedExecutionDate: isoDate.optional(),
  identifier,
});

interface PaymentInput {
  amount: string;
  currencyCode: string;
  description: string;
  endToEndId: string;
  creditorName: string;
  creditorAccount: { iban: string; currencyCode?: string | undefined };
  debtorAccount?: { iban: string; currencyCode?: string | undefined } | undefined;
  informationStructured?: { reference: string; referenceType?: string | undefined } | undefined;
  requestedExecutionDate?: string | undefined;
  email?: string | undefined;
  card: boolean;
}

function parsePaymentBody(raw: string, version: ApiVersion): PaymentInput {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw apiErrors.invalidPaymentData(`"value" must be of type object`);
  }
  const fail = (message: string) => apiErrors.invalidPaymentData(message);
  const keys = typeof json === "object" && json !== null && !Array.isArray(json) ? Object.keys(json) : [];
  if (keys.includes("cardPaymentMethod") && !supports(version, "cards"))
    throw apiErrors.invalidPaymentMethod("Card payments need API v0.3.");
  const nested =
    supports(version, "nestedBody") && (!supports(version, "flatBody") || keys.includes("bankPaymentMethod"));
  if (nested) {
    const body = parseValue(json, nestedBody, fail);
    const m = body.bankPaymentMethod;
    return {
      amount: body.amount,
      currencyCode: body.currencyCode,
      description: body.description,
      endToEndId: m.endToEndId,
      creditorName: m.creditorName,
      creditorAccount: m.creditorAccount,
      debtorAccount: m.debtorAccount,
      informationStructured: m.informationStructured,
      requestedExecutionDate: m.requestedExecutionDate,
      email: body.identifier?.email,
      card: body.cardPaymentMethod !== undefined,
    };
  }
  const body = parseValue(json, flatBody, fail);
  return { ...body, description: body.informationUnstructured, email: body.identifier?.email, card: false };
}

// ---------------------------------------------------------------------------------------------
// Shapes on the wire.

function executionDate(payment: PaymentRecord): string {
  return payment.requestedExecutionDate
    ? `${payment.requestedExecutionDate}T00:00:00.000Z`
    : new Date(payment.createdAt).toISOString();
}

/** GET /pis/payment/{id} (provider-api.md 4.3); v0.1 and v0.2 show the flat shape of their request. */
export function paymentJson(payment: PaymentRecord, version: ApiVersion) {
  const status = statusField(version, payment.statusKind, payment.statusCode);
  const optional = {
    ...(payment.informationStructured && { informationStructured: payment.informationStructured }),
  };
  const bankSide = {
    creditorAccount: payment.creditorAccount,
    ...(payment.debtorAccount && { debtorAccount: payment.debtorAccount }),
    ...(payment.bankId !== undefined && { bankId: payment.bankId }),
    paymentProduct: "DOMESTIC_SEPA_CREDIT_TRANSFERS",
    requestedExecutionDate: executionDate(payment),
  };
  const head = {
    id: payment.id,
    ...status,
    statusGroup: payment.statusGroup,
    amount: payment.amount,
    currencyCode: payment.currencyCode,
  };
  if (supports(version, "flatBody")) {
    return {
      ...head,
      endToEndId: payment.endToEndId,
      informationUnstructured: payment.description,
      ...optional,
      creditorName: payment.creditorName,
      ...bankSide,
    };
  }
  return {
    ...head,
    description: payment.description,
    bankPaymentMethod: { creditorName: payment.creditorName, endToEndId: payment.endToEndId, ...optional, ...bankSide },
    ...(payment.method !== "bank" && { cardPaymentMethod: {} }),
  };
}

/** GET /pis/payment/{id}/status: note the key is `group`, not `statusGroup`. */
export function paymentStatusJson(payment: PaymentRecord, version: ApiVersion) {
  return {
    ...statusField(version, payment.statusKind, payment.statusCode),
    group: payment.statusGroup,
    ...(payment.errorCodes.length > 0 && { error: { code: payment.errorCodes } }),
  };
}

/** The merchant's Redirect-URL with paymentId and statusGroup appended (provider-api.md 8). */
export function returnUrl(payment: PaymentRecord): string {
  return appendQuery(payment.redirectUrl, { paymentId: payment.id, statusGroup: payment.statusGroup });
}

// ---------------------------------------------------------------------------------------------
// Initiation.

function newPaymentId(): string {
  return randomBytes(20).toString("hex");
}

function paymentMethodOf(call: ApiCall, preferred: string | null, card: boolean): "bank" | "card" | "hybrid" {
  if (preferred !== null && preferred !== "" && preferred !== "bank" && preferred !== "card") {
    throw apiErrors.invalidRequest(`"paymentMethodPreferred" must be one of [bank, card]`);
  }
  const wantsCard = preferred === "card" || (card && preferred !== "bank");
  if (!wantsCard) return "bank";
  if (!supports(call.version, "cards")) throw apiErrors.invalidPaymentMethod("Card payments need API v0.3.");
  if (!settingsOf(call.project).paymentMethods.includes("card"))
    throw apiErrors.invalidPaymentMethod("The project has no card payments.");
  if (!card) throw apiErrors.invalidPaymentData(`"cardPaymentMethod" is required`);
  return preferred === "card" ? "card" : "hybrid";
}

export async function initiatePayment(call: ApiCall) {
  const { ctx, project, url, version } = call;
  // A linked-account payment (Bearer token from POST /auth/token) skips login and account choice.
  const linking = bearerLinking(call, false);
  if (linking) requireScope(linking, "payments");
  const redirectUrl = checkRedirectUrl(call);
  const webhookUrl = checkWebhookUrl(call);
  const bankId = url.searchParams.get("bankId") || undefined;
  if (bankId !== undefined && !findBank(bankId)) throw apiErrors.invalidBankId(bankId);
  if (linking && bankId !== undefined && bankId !== linking.bankId)
    throw apiErrors.invalidBankId(bankId, "is not the bank of the linked account");
  const redirectPreferred = booleanQuery(url, "redirectPreferred") ?? settingsOf(project).redirectPreferred;
  const preferred = url.searchParams.get("paymentMethodPreferred");
  const hosted = hostedPageQuery(url);

  const body = parsePaymentBody(await readBody(call.req), version);
  const method = paymentMethodOf(call, preferred, body.card);
  if (linking && method !== "bank") throw apiErrors.invalidPaymentMethod("A linked-account payment is a bank payment.");

  const now = ctx.now();
  const chosenBank = linking?.bankId ?? bankId;
  const linkedBank = linking && findBank(linking.bankId);
  const linkedAccount = linking && linkedBank ? accountsOf(linkedBank, linking.user)[0] : undefined;
  const kind: StatusKind = method === "bank" ? "bank" : "hybrid";
  const code = kind === "bank" ? "STRD" : "created";
  const payment: PaymentRecord = {
    id: newPaymentId(),
    projectId: project.id,
    version,
    createdAt: now,
    updatedAt: now,
    expiresAt: now + settingsOf(project).paymentExpiresTmoInSec * 1000,
    amount: body.amount,
    currencyCode: body.currencyCode,
    description: body.description,
    endToEndId: body.endToEndId,
    creditorName: body.creditorName,
    creditorAccount: {
      iban: body.creditorAccount.iban,
      currencyCode: body.creditorAccount.currencyCode ?? body.currencyCode,
    },
    ...(body.debtorAccount && {
      debtorAccount: {
        iban: body.debtorAccount.iban,
        currencyCode: body.debtorAccount.currencyCode ?? body.currencyCode,
      },
    }),
    ...(linkedAccount && { debtorAccount: { iban: linkedAccount.iban, currencyCode: body.currencyCode } }),
    ...(body.informationStructured && { informationStructured: body.informationStructured }),
    ...(body.requestedExecutionDate !== undefined && { requestedExecutionDate: body.requestedExecutionDate }),
    ...(body.email !== undefined && { email: body.email }),
    method,
    ...(chosenBank !== undefined && { bankId: chosenBank }),
    bankPreselected: chosenBank !== undefined,
    redirectUrl,
    ...(webhookUrl !== undefined && { webhookUrl }),
    ...hosted,
    redirectPreferred,
    ...(linking && { linkingId: linking.id, user: linking.user }),
    statusKind: kind,
    statusCode: code,
    statusGroup: "started",
    errorCodes: [],
    history: [{ at: now, kind, code, group: "started", errorCodes: [], source: "api" }],
    step: linking
      ? "confirm"
      : method === "card"
        ? "card"
        : method === "hybrid"
          ? "method"
          : chosenBank
            ? "login"
            : "bank",
    link: {},
  };
  ctx.store.payments.set(payment.id, payment);
  ctx.store.unsettled.payments.add(payment);
  ctx.changed();

  const confirmLink = appendQuery(`${ctx.publicUrl()}/login/${payment.id}`, hosted);
  return { id: payment.id, ...statusField(version, kind, code), statusGroup: payment.statusGroup, confirmLink };
}

export function ownPayment(call: ApiCall, id: string): PaymentRecord {
  const payment = call.ctx.store.payments.get(id);
  // Another project's payment is as unknown as a made-up id.
  if (!payment || payment.projectId !== call.project.id) throw apiErrors.notFound("Payment");
  return payment;
}
