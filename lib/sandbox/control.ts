import type { IncomingMessage } from "node:http";
import { revokeLinking } from "./auth";
import type { SandboxContext } from "./context";
import { parseFault } from "./faults";
import { apiErrors, readBody } from "./http";
import { runDueTransitions, setPaymentStatus, setRefundStatus } from "./lifecycle";
import { projectById } from "./projects";
import { refundJson } from "./refunds";
import { ERROR_CODES, STATUS_CODES, STATUS_GROUPS, isStatusCode } from "./statuses";
import {
  paymentRefunds,
  type ChangeSource,
  type Linking,
  type PaymentRecord,
  type RefundRecord,
  type StatusGroup,
  type StatusKind,
} from "./store";

/**
 * The control API for tests and demos, JSON under `/_sandbox/` (README "Control API"). It is not
 * part of the provider's API: callers send the sandbox's control secret (checked in app.ts), and
 * times are epoch milliseconds of the sandbox clock.
 */

const KINDS: readonly StatusKind[] = ["bank", "card", "hybrid"];

/** Reason codes a forced failure reports unless the caller names its own. */
const FORCED_ERROR_CODES: Readonly<Record<string, number[]>> = {
  CANC: [ERROR_CODES.cancelledBeforeConfirmation],
  RJCT: [ERROR_CODES.rejectedByBank],
  payment_failure: [ERROR_CODES.rejectedByBank],
  expired: [ERROR_CODES.expired],
};

export function forcePaymentStatus(
  ctx: SandboxContext,
  payment: PaymentRecord,
  input: {
    kind: StatusKind;
    code: string;
    group?: StatusGroup | undefined;
    errorCodes?: number[] | undefined;
    source: ChangeSource;
  },
) {
  setPaymentStatus(ctx, payment, {
    kind: input.kind,
    code: input.code,
    ...(input.group !== undefined && { group: input.group }),
    errorCodes: input.errorCodes ?? FORCED_ERROR_CODES[input.code] ?? [],
    source: input.source,
    forced: true,
  });
  // A forced status is where the payment stays until forced again: no automatic completion.
  delete payment.pendingUntil;
}

function controlRefundJson(refund: RefundRecord) {
  return {
    ...refundJson(refund),
    currencyCode: refund.currencyCode,
    completeAt: refund.completeAt ?? null,
    updatedAt: refund.updatedAt,
  };
}

/** The project a payment or linking belongs to, and that project's client id (what the merchant knows it by). */
function ownerJson(ctx: SandboxContext, projectId: string) {
  return { projectId, clientId: projectById(ctx.store.projects, projectId)?.clientId ?? null };
}

export function controlPaymentJson(ctx: SandboxContext, p: PaymentRecord) {
  return {
    id: p.id,
    ...ownerJson(ctx, p.projectId),
    version: p.version,
    method: p.method,
    amount: p.amount,
    currencyCode: p.currencyCode,
    description: p.description,
    endToEndId: p.endToEndId,
    bankId: p.bankId ?? null,
    debtorAccount: p.debtorAccount ?? null,
    statusKind: p.statusKind,
    [`${p.statusKind}Status`]: p.statusCode,
    statusGroup: p.statusGroup,
    errorCodes: p.errorCodes,
    step: p.step,
    linkUsed: p.link.token !== undefined,
    linkingId: p.linkingId ?? null,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    expiresAt: p.expiresAt,
    pendingUntil: p.pendingUntil ?? null,
    redirectUrl: p.redirectUrl,
    webhookUrl: p.webhookUrl ?? null,
    history: p.history.map((h) => ({
      at: h.at,
      [`${h.kind}Status`]: h.code,
      statusGroup: h.group,
      errorCodes: h.errorCodes,
      source: h.source,
    })),
    refunds: paymentRefunds(ctx.store, p.id).map(controlRefundJson),
  };
}

function controlLinkingJson(ctx: SandboxContext, l: Linking) {
  return {
    id: l.id,
    ...ownerJson(ctx, l.projectId),
    bankId: l.bankId,
    user: l.user,
    scopes: l.scopes,
    createdAt: l.createdAt,
    expiresAt: l.expiresAt,
    revokedAt: l.revokedAt ?? null,
  };
}

function deliveryJson(ctx: SandboxContext) {
  return [...ctx.store.deliveries].reverse().map(({ rawBody: body, ...delivery }) => ({ ...delivery, body }));
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  if (raw === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw apiErrors.invalidRequest(`"value" must be of type object`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw apiErrors.invalidRequest(`"value" must be of type object`);
  return json as Record<string, unknown>;
}

function parseGroup(value: unknown): StatusGroup | undefined {
  if (value === undefined) return undefined;
  if (!STATUS_GROUPS.includes(value as StatusGroup))
    throw apiErrors.invalidRequest(`"statusGroup" must be one of [${STATUS_GROUPS.join(", ")}]`);
  return value as StatusGroup;
}

function parseForce(body: Record<string, unknown>) {
  const given = KINDS.filter((kind) => body[`${kind}Status`] !== undefined);
  const [kind] = given;
  if (given.length !== 1 || kind === undefined)
    throw apiErrors.invalidRequest(`"value" must contain exactly one of [bankStatus, cardStatus, hybridStatus]`);
  const code = body[`${kind}Status`];
  if (typeof code !== "string" || !isStatusCode(kind, code)) {
    throw apiErrors.invalidRequest(`"${kind}Status" must be one of [${STATUS_CODES[kind].join(", ")}]`);
  }
  const errorCodes = body.errorCodes;
  if (errorCodes !== undefined && !(Array.isArray(errorCodes) && errorCodes.every((c) => Number.isInteger(c)))) {
    throw apiErrors.invalidRequest(`"errorCodes" must be an array of integers`);
  }
  return { kind, code, group: parseGroup(body.statusGroup), errorCodes: errorCodes as number[] | undefined };
}

export function advanceClock(ctx: SandboxContext, advanceMs: number) {
  ctx.store.clock.offsetMs += advanceMs;
  ctx.webhooks.reschedule();
  runDueTransitions(ctx);
  ctx.changed();
}

export function resetSandbox(ctx: SandboxContext) {
  ctx.webhooks.reset();
  ctx.faults.set({ mode: "none", delayMs: 0, paths: [] });
  ctx.store.clear();
  ctx.changed();
}

function clockJson(ctx: SandboxContext) {
  return { now: ctx.now(), offsetMs: ctx.store.clock.offsetMs };
}

function newestFirst<T extends { createdAt: number }>(items: Iterable<T>): T[] {
  return [...items].sort((a, b) => b.createdAt - a.createdAt);
}

/** Answers `/_sandbox/...` (path segments after it) with the JSON body of a 200, or throws an ApiError. */
export async function handleControl(
  ctx: SandboxContext,
  req: IncomingMessage,
  method: string,
  segments: string[],
  url: URL,
): Promise<unknown> {
  const [a, b, c, ...extra] = segments;
  if (extra.length > 0) throw apiErrors.notFound("Route");
  const q = url.searchParams;

  if (a === "payments" && b === undefined && method === "GET") {
    const payments = newestFirst(ctx.store.payments.values()).filter(
      (p) =>
        (!q.get("endToEndId") || p.endToEndId === q.get("endToEndId")) &&
        (!q.get("clientId") || projectById(ctx.store.projects, p.projectId)?.clientId === q.get("clientId")),
    );
    return { data: payments.map((p) => controlPaymentJson(ctx, p)) };
  }
  if (a === "payments" && b !== undefined) {
    const payment = ctx.store.payments.get(b);
    if (!payment) throw apiErrors.notFound("Payment");
    if (c === undefined && method === "GET") return controlPaymentJson(ctx, payment);
    if (c === "status" && method === "POST") {
      forcePaymentStatus(ctx, payment, { ...parseForce(await jsonBody(req)), source: "control" });
      return controlPaymentJson(ctx, payment);
    }
  }
  if (a === "refunds" && b === undefined && method === "GET") {
    return { data: newestFirst(ctx.store.refunds.values()).map(controlRefundJson) };
  }
  if (a === "refunds" && b !== undefined && c === "status" && method === "POST") {
    const refund = ctx.store.refunds.get(Number(b));
    if (!refund) throw apiErrors.notFound("Refund");
    const group = parseGroup((await jsonBody(req)).statusGroup);
    if (group === undefined) throw apiErrors.invalidRequest(`"statusGroup" is required`);
    setRefundStatus(ctx, refund, group);
    return controlRefundJson(refund);
  }
  if (a === "linkings" && b === undefined && method === "GET") {
    return { data: newestFirst(ctx.store.linkings.values()).map((l) => controlLinkingJson(ctx, l)) };
  }
  if (a === "linkings" && b !== undefined && c === "revoke" && method === "POST") {
    const linking = ctx.store.linkings.get(b);
    if (!linking) throw apiErrors.notFound("Linking");
    revokeLinking(ctx, linking);
    return controlLinkingJson(ctx, linking);
  }
  if (a === "webhooks" && b === undefined && method === "GET") {
    const paymentId = q.get("paymentId");
    return { data: deliveryJson(ctx).filter((d) => !paymentId || d.paymentId === paymentId) };
  }
  if (a === "faults" && b === undefined) {
    if (method === "POST") ctx.faults.set(parseFault(await jsonBody(req)));
    if (method === "POST" || method === "GET") return ctx.faults.current();
  }
  if (a === "clock" && b === undefined) {
    if (method === "POST") {
      const advanceMs = (await jsonBody(req)).advanceMs;
      if (typeof advanceMs !== "number" || !Number.isInteger(advanceMs) || advanceMs < 0) {
        throw apiErrors.invalidRequest(`"advanceMs" must be a non-negative integer`);
      }
      advanceClock(ctx, advanceMs);
    }
    if (method === "POST" || method === "GET") return clockJson(ctx);
  }
  if (a === "reset" && b === undefined && method === "POST") {
    resetSandbox(ctx);
    return { reset: true };
  }
  throw apiErrors.notFound("Route");
}
