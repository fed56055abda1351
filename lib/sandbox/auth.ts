import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import type { ApiCall } from "./call";
import { findBank, supportsLinking } from "./banks";
import type { SandboxContext } from "./context";
import { appendQuery, apiErrors, header, readBody } from "./http";
import { booleanQuery, checkRedirectUrl, checkWebhookUrl, hostedPageQuery } from "./params";
import { ALL_SCOPES, settingsOf, type Scope } from "./projects";
import type { AuthRequest, Linking, TokenRecord } from "./store";
import { parseBody, text } from "./validation";
import { supports } from "./versions";

/**
 * Account linking (provider-api.md 4.7, 4.8): POST /auth starts it, the payer finishes it on the
 * hosted page (linking.ts), and the merchant trades the code for tokens. Lifetimes follow the
 * reference: authorizationLink 48 h, linking 90 days. Token lifetimes are in milliseconds (ADR 7).
 */

const AUTH_LINK_TTL_MS = 48 * 3600 * 1000;
const AUTH_CODE_TTL_MS = 10 * 60 * 1000;
const ACCESS_TOKEN_TTL_MS = 3600 * 1000;
const LINKING_TTL_MS = 90 * 24 * 3600 * 1000;

/**
 * The scopes of POST /auth in every encoding clients use: `scopes=a&scopes=b` (JVM),
 * `scopes[0]=a&scopes[1]=b` (PHP, often percent-encoded as `scopes%5B0%5D`, which URLSearchParams
 * decodes), `scopes[]=a` and `scopes=a,b`, in any case: the official JVM client sends its enum's
 * name (`PAYMENTS`: Ktor's parameter() writes toString(), not the @SerialName), and a client the
 * provider published is taken to have worked against it.
 */
export function parseScopes(url: URL): string[] {
  const found: string[] = [];
  for (const [key, value] of url.searchParams) {
    if (key !== "scopes" && !/^scopes\[\d*\]$/.test(key)) continue;
    for (const scope of value.split(",")) {
      const trimmed = scope.trim().toLowerCase();
      if (trimmed !== "" && !found.includes(trimmed)) found.push(trimmed);
    }
  }
  return found;
}

function checkScopes(call: ApiCall): Scope[] {
  const asked = parseScopes(call.url);
  if (asked.length === 0) throw apiErrors.invalidScopes(`"scopes" is required`);
  const allowed = settingsOf(call.project).scopes;
  asked.forEach((scope, i) => {
    if (!(ALL_SCOPES as readonly string[]).includes(scope))
      throw apiErrors.invalidScopes(`"scopes[${i}]" must be one of [${ALL_SCOPES.join(", ")}]`);
    if (!(allowed as readonly string[]).includes(scope))
      throw apiErrors.invalidScopes(`"scopes[${i}]" is not enabled for this project`);
  });
  const scopes = asked as Scope[];
  // Balances and transactions come with the account details (D-ais: the server adds the scope).
  if (
    (scopes.includes("accounts_balances") || scopes.includes("accounts_transactions")) &&
    !scopes.includes("accounts_details")
  ) {
    scopes.push("accounts_details");
  }
  return scopes;
}

const startAuthBody = z.object({
  email: z
    .email({ error: (issue) => (issue.code === "invalid_format" ? "must be a valid email" : undefined) })
    .optional(),
  cardMethod: z.looseObject({}).optional(),
});

/** POST /auth. */
export async function startAuth(call: ApiCall) {
  const { ctx, project, url, version } = call;
  const requestId = header(call.req, "request-id")?.trim();
  if (!requestId) throw apiErrors.invalidRequest(`"Request-Id" is required`);
  const redirectUrl = checkRedirectUrl(call);
  // Webhook-URL on /auth came with v0.3; earlier versions ignore the header.
  const webhookUrl = supports(version, "authWebhook") ? checkWebhookUrl(call) : undefined;
  const scopes = checkScopes(call);
  const bankId = url.searchParams.get("bankId") || undefined;
  const bank = bankId === undefined ? undefined : findBank(bankId);
  if (bankId !== undefined && !bank) throw apiErrors.invalidBankId(bankId);
  if (bank && !supportsLinking(bank)) throw apiErrors.invalidBankId(bank.id, "does not support account linking");
  const redirectPreferred = booleanQuery(url, "redirectPreferred") ?? settingsOf(project).redirectPreferred;
  const hosted = hostedPageQuery(url);
  const body = parseBody(await readBody(call.req), startAuthBody, (m) => apiErrors.invalidRequest(m), {});
  const card = body.cardMethod !== undefined;
  if (card && !supports(version, "cards")) throw apiErrors.invalidPaymentMethod("Card linking needs API v0.3.");
  if (card && !settingsOf(project).paymentMethods.includes("card"))
    throw apiErrors.invalidPaymentMethod("The project has no card payments.");

  const now = ctx.now();
  const request: AuthRequest = {
    state: randomUUID(),
    projectId: project.id,
    version,
    requestId,
    redirectUrl,
    ...(webhookUrl !== undefined && { webhookUrl }),
    scopes,
    method: card ? "card" : "bank",
    ...(bank && !card && { bankId: bank.id }),
    bankPreselected: bank !== undefined && !card,
    redirectPreferred,
    ...hosted,
    ...(body.email !== undefined && { email: body.email }),
    createdAt: now,
    expiresAt: now + AUTH_LINK_TTL_MS,
    step: card ? "card" : bank ? "login" : "bank",
    link: {},
  };
  ctx.store.authRequests.set(request.state, request);
  ctx.changed();
  return { authorizationLink: appendQuery(`${ctx.publicUrl()}/auth/${request.state}`, hosted), state: request.state };
}

/** The Redirect-URL after the hosted linking: requestId, code and status (provider-api.md 4.7). */
export function authReturnUrl(request: AuthRequest): string {
  return appendQuery(request.redirectUrl, {
    requestId: request.requestId,
    code: request.outcome === "success" ? request.code : undefined,
    status: request.outcome === "success" ? "success" : "failure",
  });
}

/** Ends a linking with the payer's consent: a Linking and a single-use authorization code. */
export function grantLinking(ctx: SandboxContext, request: AuthRequest) {
  if (request.bankId === undefined || request.user === undefined) return;
  const now = ctx.now();
  const linking: Linking = {
    id: randomUUID(),
    projectId: request.projectId,
    bankId: request.bankId,
    user: request.user,
    scopes: request.scopes,
    createdAt: now,
    expiresAt: now + LINKING_TTL_MS,
  };
  ctx.store.linkings.set(linking.id, linking);
  const code = randomBytes(24).toString("hex");
  ctx.store.authCodes.set(code, {
    code,
    projectId: request.projectId,
    linkingId: linking.id,
    expiresAt: now + AUTH_CODE_TTL_MS,
    used: false,
  });
  request.code = code;
  request.outcome = "success";
  request.step = "done";
}

/** A linking works until its 90 days are over or the payer revokes it at the bank. */
export function linkingActive(linking: Linking, now: number): boolean {
  return linking.revokedAt === undefined && now < linking.expiresAt;
}

/**
 * The payer withdraws consent at the bank: from now on the linking's access and refresh tokens (and
 * an unused authorization code) are refused like expired ones. Revoking again keeps the first time.
 */
export function revokeLinking(ctx: SandboxContext, linking: Linking) {
  if (linking.revokedAt !== undefined) return;
  linking.revokedAt = ctx.now();
  ctx.changed();
}

function newToken(ctx: SandboxContext, kind: TokenRecord["kind"], linking: Linking, expiresAt: number): TokenRecord {
  const record: TokenRecord = {
    token: randomBytes(32).toString("hex"),
    kind,
    linkingId: linking.id,
    projectId: linking.projectId,
    expiresAt,
  };
  ctx.store.tokens.set(record.token, record);
  return record;
}

/** Token (provider-api.md 4.8); a refresh token rotates, but the linking's 90 days do not restart. */
function issueTokens(ctx: SandboxContext, linking: Linking) {
  const now = ctx.now();
  const access = newToken(ctx, "access", linking, now + ACCESS_TOKEN_TTL_MS);
  const refresh = newToken(ctx, "refresh", linking, linking.expiresAt);
  ctx.changed();
  return {
    authId: linking.id,
    tokenType: "Bearer",
    accessToken: access.token,
    accessTokenExpiresIn: access.expiresAt - now,
    refreshToken: refresh.token,
    refreshTokenExpiresIn: refresh.expiresAt - now,
  };
}

const tokenBody = z.object({
  grantType: z.enum(["authorizationCode", "refreshToken"]),
  code: text.optional(),
  refreshToken: text.optional(),
});

/** POST /auth/token, for both grant types. */
export async function receiveToken(call: ApiCall) {
  const { ctx, project } = call;
  const body = parseBody(await readBody(call.req), tokenBody, (m) => apiErrors.invalidRequest(m));
  const now = ctx.now();
  if (body.grantType === "authorizationCode") {
    if (body.code === undefined) throw apiErrors.invalidRequest(`"code" is required`);
    const code = ctx.store.authCodes.get(body.code);
    const linking = code && ctx.store.linkings.get(code.linkingId);
    if (
      !code ||
      !linking ||
      code.used ||
      code.projectId !== project.id ||
      now >= code.expiresAt ||
      !linkingActive(linking, now)
    ) {
      throw apiErrors.invalidGrant("The authorization code is invalid, used or expired.");
    }
    code.used = true;
    return issueTokens(ctx, linking);
  }
  if (body.refreshToken === undefined) throw apiErrors.invalidRequest(`"refreshToken" is required`);
  const old = ctx.store.tokens.get(body.refreshToken);
  const linking = old && ctx.store.linkings.get(old.linkingId);
  if (
    !old ||
    !linking ||
    old.kind !== "refresh" ||
    old.used ||
    old.projectId !== project.id ||
    now >= old.expiresAt ||
    !linkingActive(linking, now)
  ) {
    throw apiErrors.invalidGrant("The refresh token is invalid, used or expired.");
  }
  old.used = true;
  return issueTokens(ctx, linking);
}

/**
 * The linking behind `Authorization: Bearer <accessToken>`. Missing, unknown, expired, revoked or
 * another project's token is a 401 InvalidToken; without `required` a missing header is fine.
 */
export function bearerLinking(call: ApiCall, required: true): Linking;
export function bearerLinking(call: ApiCall, required: boolean): Linking | undefined;
export function bearerLinking(call: ApiCall, required: boolean): Linking | undefined {
  const value = header(call.req, "authorization");
  if (value === undefined || value.trim() === "") {
    if (required) throw apiErrors.invalidToken();
    return undefined;
  }
  const token = /^Bearer\s+(\S+)\s*$/i.exec(value)?.[1];
  const record = token === undefined ? undefined : call.ctx.store.tokens.get(token);
  const linking = record && call.ctx.store.linkings.get(record.linkingId);
  const now = call.ctx.now();
  if (
    !record ||
    !linking ||
    record.kind !== "access" ||
    record.projectId !== call.project.id ||
    now >= record.expiresAt ||
    !linkingActive(linking, now)
  ) {
    throw apiErrors.invalidToken();
  }
  return linking;
}

export function requireScope(linking: Linking, ...anyOf: Scope[]) {
  if (!anyOf.some((scope) => linking.scopes.includes(scope))) throw apiErrors.insufficientScope(anyOf.join(" or "));
}

/** GET /auth/token/content. expiresIn: milliseconds left of the presented access token. */
export function tokenContent(call: ApiCall) {
  const linking = bearerLinking(call, true);
  const token = /^Bearer\s+(\S+)/i.exec(header(call.req, "authorization") ?? "")?.[1] ?? "";
  const record = call.ctx.store.tokens.get(token);
  const bank = findBank(linking.bankId);
  return {
    clientConsent: true,
    expiresIn: record ? record.expiresAt - call.ctx.now() : 0,
    bankName: bank?.name ?? linking.bankId,
    bankId: linking.bankId,
  };
}
