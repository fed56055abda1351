import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { COUNTRIES, bankJson, findBank, isCountryCode, listBanks, testDebtorIban } from "./banks";
import type { SandboxContext } from "./context";
import { apiErrors, header, isHttpUrl, readBody, sendJson } from "./http";
import { authenticate, type Project } from "./projects";
import type { PaymentRecord } from "./store";

// ---------------------------------------------------------------------------------------------
// Validation. The provider validates with Joi and puts Joi's first message in `data`, naming the
// field by its full path: `"description" is required`, `"amount" must be a number` (provider-api.md
// 6). The zod issues are turned into the same sentences.

/** The part of a Joi message after the quoted label, for zod's generic issues. */
function joiPhrase(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      if (issue.expected === "object") return "must be of type object";
      return `must be a ${issue.expected}`;
    case "too_small":
      if (issue.origin !== "string") return undefined;
      return issue.minimum === 1 ? "is not allowed to be empty" : `length must be at least ${String(issue.minimum)} characters long`;
    case "too_big":
      if (issue.origin !== "string") return undefined;
      return `length must be less than or equal to ${String(issue.maximum)} characters long`;
    default:
      return undefined;
  }
}

function joiMessage(issue: z.core.$ZodIssue): string {
  const label = issue.path.length === 0 ? "value" : issue.path.join(".");
  return `"${label}" ${issue.message}`;
}

const text = z.string().min(1);

const amount = z.unknown().transform((value, ctx) => {
  if (value === undefined) {
    ctx.addIssue({ code: "custom", message: "is required" });
    return z.NEVER;
  }
  // The official clients send a string ("12.30"); a JSON number is accepted as Joi's number() would.
  const raw = typeof value === "number" ? String(value) : value;
  if (typeof raw !== "string" || !/^-?\d+(\.\d+)?$/.test(raw)) {
    ctx.addIssue({ code: "custom", message: "must be a number" });
    return z.NEVER;
  }
  if (/\.\d{3,}$/.test(raw)) {
    ctx.addIssue({ code: "custom", message: "contains an invalid value" });
    return z.NEVER;
  }
  if (raw.startsWith("-") || !/[1-9]/.test(raw)) {
    ctx.addIssue({ code: "custom", message: "must be greater than 0" });
    return z.NEVER;
  }
  return raw;
});

const currencyPattern = /^[A-Z]{3}$/;
const currencyCode = z.string().regex(currencyPattern, {
  error: (issue) => `with value "${String(issue.input)}" fails to match the required pattern: ${String(currencyPattern)}`,
});

function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const digits = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

const iban = text
  .transform((value) => value.replace(/\s+/g, "").toUpperCase())
  .refine(isValidIban, { error: "must be a valid IBAN" });

const account = z.object({ iban, currencyCode: currencyCode.optional() });

const initiatePaymentBody = z.object({
  amount,
  currencyCode,
  description: text,
  bankPaymentMethod: z.object({
    // At most 33 characters: a third-party client documents this limit of the real API.
    endToEndId: text.max(33),
    creditorName: text,
    creditorAccount: account,
    debtorAccount: account.optional(),
    informationStructured: z.object({ reference: text, referenceType: text.optional() }).optional(),
    requestedExecutionDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be in yyyy-MM-dd format" })
      .optional(),
  }),
  // `{}` enables card and hybrid flows at the real provider; the test project has bank payments only
  // so far, and the object is accepted and kept.
  cardPaymentMethod: z.looseObject({}).optional(),
  identifier: z
    .object({
      email: z.email({ error: (issue) => (issue.code === "invalid_format" ? "must be a valid email" : undefined) }).optional(),
    })
    .optional(),
});

type InitiatePaymentBody = z.output<typeof initiatePaymentBody>;

function parseInitiatePayment(raw: string): InitiatePaymentBody {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw apiErrors.invalidPaymentData(`"value" must be of type object`);
  }
  const parsed = initiatePaymentBody.safeParse(json, { error: joiPhrase });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw apiErrors.invalidPaymentData(first ? joiMessage(first) : `"value" is invalid`);
  }
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------
// Shapes on the wire.

/** GET /pis/payment/{id} (provider-api.md 4.3). */
export function paymentJson(payment: PaymentRecord) {
  return {
    id: payment.id,
    bankStatus: payment.bankStatus,
    statusGroup: payment.statusGroup,
    amount: payment.amount,
    currencyCode: payment.currencyCode,
    description: payment.description,
    bankPaymentMethod: {
      creditorName: payment.creditorName,
      endToEndId: payment.endToEndId,
      ...(payment.informationStructured && { informationStructured: payment.informationStructured }),
      creditorAccount: payment.creditorAccount,
      ...(payment.debtorAccount && { debtorAccount: payment.debtorAccount }),
      ...(payment.bankId !== undefined && { bankId: payment.bankId }),
      paymentProduct: "DOMESTIC_SEPA_CREDIT_TRANSFERS",
      requestedExecutionDate: payment.requestedExecutionDate
        ? `${payment.requestedExecutionDate}T00:00:00.000Z`
        : new Date(payment.createdAt).toISOString(),
    },
  };
}

/** GET /pis/payment/{id}/status: note the key is `group`, not `statusGroup`. */
export function paymentStatusJson(payment: PaymentRecord) {
  return {
    bankStatus: payment.bankStatus,
    group: payment.statusGroup,
    ...(payment.errorCodes.length > 0 && { error: { code: payment.errorCodes } }),
  };
}

/** The PAYMENT webhook body, serialised once: the signature covers exactly these bytes. */
export function paymentWebhookBody(payment: PaymentRecord): string {
  return JSON.stringify({ id: payment.id, bankStatus: payment.bankStatus, statusGroup: payment.statusGroup, type: "PAYMENT" });
}

/** The merchant's Redirect-URL with paymentId and statusGroup appended (provider-api.md 8). */
export function returnUrl(payment: PaymentRecord): string {
  const hashAt = payment.redirectUrl.indexOf("#");
  const base = hashAt === -1 ? payment.redirectUrl : payment.redirectUrl.slice(0, hashAt);
  const fragment = hashAt === -1 ? "" : payment.redirectUrl.slice(hashAt);
  const params = new URLSearchParams({ paymentId: payment.id, statusGroup: payment.statusGroup });
  // Append rather than re-serialise: the merchant's own query (maybe signed) stays byte for byte.
  const separator = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&";
  return `${base}${separator}${params.toString()}${fragment}`;
}

// ---------------------------------------------------------------------------------------------
// Outcomes decided on the hosted page.

export type Outcome = { kind: "approved" } | { kind: "cancelled" };

/**
 * Moves a payment to its final status and notifies the merchant in the background. Returns false
 * when the payment was already final, so a double click never sends a second outcome.
 */
export function settlePayment(ctx: SandboxContext, payment: PaymentRecord, outcome: Outcome): boolean {
  if (payment.step === "done") return false;
  if (outcome.kind === "approved") {
    const bank = payment.bankId === undefined ? undefined : findBank(payment.bankId);
    if (!bank) return false;
    payment.bankStatus = "ACSC";
    payment.statusGroup = "completed";
    payment.debtorAccount = { iban: testDebtorIban(bank), currencyCode: payment.currencyCode };
  } else {
    payment.bankStatus = "CANC";
    payment.statusGroup = "failed";
    // 21004: cancelled on the confirm step; 21001: cancelled before logging in to the bank.
    payment.errorCodes = [payment.step === "confirm" ? 21004 : 21001];
  }
  payment.step = "done";
  payment.updatedAt = ctx.now();

  const project = [...ctx.store.projects.values()].find((p) => p.id === payment.projectId);
  if (payment.webhookUrl !== undefined && project) {
    ctx.webhooks.send({
      paymentId: payment.id,
      url: payment.webhookUrl,
      rawBody: paymentWebhookBody(payment),
      secret: project.webhookSecret,
    });
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The API at /platform/v0.x.

function newPaymentId(): string {
  return randomBytes(20).toString("hex");
}

function booleanQuery(url: URL, name: string): boolean {
  const value = url.searchParams.get(name);
  if (value === null || value === "") return false;
  if (value === "true" || value === "false") return value === "true";
  throw apiErrors.invalidRequest(`"${name}" must be a boolean`);
}

async function initiatePayment(ctx: SandboxContext, project: Project, req: IncomingMessage, url: URL) {
  const redirectUrl = header(req, "redirect-url")?.trim();
  if (!redirectUrl || !isHttpUrl(redirectUrl)) throw apiErrors.invalidRedirect();
  // Kept untrimmed: the webhook signature covers the exact string the merchant sent.
  const webhookUrl = header(req, "webhook-url");
  if (webhookUrl !== undefined && webhookUrl !== "" && !isHttpUrl(webhookUrl)) throw apiErrors.invalidWebhookUrl();

  const bankId = url.searchParams.get("bankId") || undefined;
  if (bankId !== undefined && !findBank(bankId)) throw apiErrors.invalidBankId(bankId);
  const redirectPreferred = booleanQuery(url, "redirectPreferred");
  const methodPreferred = url.searchParams.get("paymentMethodPreferred");
  if (methodPreferred !== null && methodPreferred !== "" && methodPreferred !== "bank") {
    throw apiErrors.invalidRequest(`"paymentMethodPreferred" must be [bank]`);
  }
  const langParam = url.searchParams.get("lang")?.toLowerCase();
  const lang = langParam && /^[a-z]{2}$/.test(langParam) ? langParam : undefined;

  const body = parseInitiatePayment(await readBody(req));
  const method = body.bankPaymentMethod;
  const now = ctx.now();
  const payment: PaymentRecord = {
    id: newPaymentId(),
    projectId: project.id,
    createdAt: now,
    updatedAt: now,
    amount: body.amount,
    currencyCode: body.currencyCode,
    description: body.description,
    endToEndId: method.endToEndId,
    creditorName: method.creditorName,
    creditorAccount: { iban: method.creditorAccount.iban, currencyCode: method.creditorAccount.currencyCode ?? body.currencyCode },
    ...(method.debtorAccount && {
      debtorAccount: { iban: method.debtorAccount.iban, currencyCode: method.debtorAccount.currencyCode ?? body.currencyCode },
    }),
    ...(method.informationStructured && { informationStructured: method.informationStructured }),
    ...(method.requestedExecutionDate !== undefined && { requestedExecutionDate: method.requestedExecutionDate }),
    ...(body.identifier?.email !== undefined && { email: body.identifier.email }),
    hasCardPaymentMethod: body.cardPaymentMethod !== undefined,
    ...(bankId !== undefined && { bankId }),
    bankPreselected: bankId !== undefined,
    redirectUrl,
    ...(webhookUrl && { webhookUrl }),
    ...(lang !== undefined && { lang }),
    redirectPreferred,
    bankStatus: "STRD",
    statusGroup: "started",
    errorCodes: [],
    step: bankId === undefined ? "bank" : "login",
  };
  ctx.store.payments.set(payment.id, payment);

  const confirmLink = `${ctx.publicUrl()}/login/${payment.id}${lang ? `?lang=${lang}` : ""}`;
  return { id: payment.id, bankStatus: payment.bankStatus, statusGroup: payment.statusGroup, confirmLink };
}

function ownPayment(ctx: SandboxContext, project: Project, id: string): PaymentRecord {
  const payment = ctx.store.payments.get(id);
  // Another project's payment is as unknown as a made-up id.
  if (!payment || payment.projectId !== project.id) throw apiErrors.notFound("Payment");
  return payment;
}

function bankList(ctx: SandboxContext, url: URL) {
  const countryCode = url.searchParams.get("countryCode");
  if (countryCode !== null && !isCountryCode(countryCode)) throw apiErrors.invalidCountryCode();
  return { data: listBanks(countryCode ?? undefined).map((bank) => bankJson(bank, ctx.publicUrl())) };
}

/**
 * Answers one API call. `path` is what follows `/platform/v0.x`. Every call needs the project's
 * Client-Id and Client-Secret, checked before anything else, as the provider does.
 */
export async function handleApi(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, method: string, path: string, url: URL) {
  const project = authenticate(ctx.store.projects, header(req, "client-id"), header(req, "client-secret"));
  if (!project) throw apiErrors.unauthorized();

  const segments = path.split("/").filter(Boolean).map(decodeSegment);
  const reply = (value: unknown) => sendJson(res, 200, value, { close: true });
  const [a, b, c, d, ...extra] = segments;
  if (extra.length > 0) throw apiErrors.notFound("Route");

  if (method === "GET" && a === "auth" && b === "countries" && c === undefined) {
    return reply({ data: Object.keys(COUNTRIES) });
  }
  if (method === "GET" && a === "auth" && b === "paymentMethods" && c === undefined) {
    return reply({ data: ["bank"] });
  }
  if (method === "GET" && a === "auth" && b === "banks" && c === undefined) {
    return reply(bankList(ctx, url));
  }
  if (method === "GET" && a === "auth" && b === "banks" && c !== undefined && d === undefined) {
    const bank = findBank(c);
    if (!bank) throw apiErrors.notFound("Bank");
    return reply(bankJson(bank, ctx.publicUrl()));
  }
  if (a === "pis" && b === "payment") {
    if (method === "POST" && c === undefined) return reply(await initiatePayment(ctx, project, req, url));
    if (method === "GET" && c !== undefined && d === undefined) return reply(paymentJson(ownPayment(ctx, project, c)));
    if (method === "GET" && c !== undefined && d === "status") return reply(paymentStatusJson(ownPayment(ctx, project, c)));
  }
  throw apiErrors.notFound("Route");
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw apiErrors.notFound("Route");
  }
}
