import { accountBalance, accountDetails, accountTransactions, listAccounts } from "./ais";
import { receiveToken, startAuth, tokenContent } from "./auth";
import { COUNTRIES, bankJson, findBank, isCountryCode, listBanks } from "./banks";
import { bankIdForCardPiece, MIN_CARD_PIECE } from "./cards";
import type { IncomingMessage } from "node:http";
import type { ApiCall } from "./call";
import type { SandboxContext } from "./context";
import { apiErrors, header } from "./http";
import { initiatePayment, ownPayment, paymentJson, paymentStatusJson } from "./payments";
import { authenticate, projectSettingsJson, settingsOf } from "./projects";
import { createRefund, listRefunds } from "./refunds";
import { supports, type ApiVersion, type Feature } from "./versions";

type Handler = (call: ApiCall, params: string[]) => unknown;

interface Route {
  method: "GET" | "POST";
  /** Segments; `:x` matches any one segment, handed to the handler in order. */
  path: string;
  /** The version feature the route needs; elsewhere it answers 404 like an unknown path. */
  feature?: Feature;
  handle: Handler;
}

function bankList(ctx: SandboxContext, url: URL, full: boolean) {
  const countryCode = url.searchParams.get("countryCode");
  if (countryCode !== null && !isCountryCode(countryCode)) throw apiErrors.invalidCountryCode();
  return { data: listBanks(countryCode ?? undefined).map((bank) => bankJson(bank, ctx.publicUrl(), full)) };
}

const countryList = () => ({ data: Object.keys(COUNTRIES) });

function oneBank(call: ApiCall, id: string) {
  const bank = findBank(id);
  if (!bank) throw apiErrors.notFound("Bank");
  return bankJson(bank, call.ctx.publicUrl(), supports(call.version, "fullBank"));
}

/** GET /auth/banks/cards/{piece}: the test bank that issued a card, from its first six digits (cards.ts). */
function bankByCard(call: ApiCall, piece: string) {
  if (!/^\d+$/.test(piece)) throw apiErrors.invalidRequest(`"cardNumberPiece" must only contain digits`);
  if (piece.length < MIN_CARD_PIECE)
    throw apiErrors.invalidRequest(`"cardNumberPiece" length must be at least ${MIN_CARD_PIECE} characters long`);
  return oneBank(call, bankIdForCardPiece(piece) ?? "");
}

const ROUTES: readonly Route[] = [
  { method: "GET", path: "auth/countries", handle: () => countryList() },
  {
    method: "GET",
    path: "auth/banks",
    handle: (call) => bankList(call.ctx, call.url, supports(call.version, "fullBank")),
  },
  {
    method: "GET",
    path: "auth/banks/cards/:piece",
    feature: "bankByCard",
    handle: (call, [piece = ""]) => bankByCard(call, piece),
  },
  { method: "GET", path: "auth/banks/:id", handle: (call, [id = ""]) => oneBank(call, id) },
  {
    method: "GET",
    path: "auth/paymentMethods",
    feature: "paymentMethods",
    handle: (call) => ({ data: [...settingsOf(call.project).paymentMethods] }),
  },
  {
    method: "GET",
    path: "auth/project/settings",
    feature: "projectSettings",
    handle: (call) => projectSettingsJson(call.project),
  },
  { method: "POST", path: "auth", handle: (call) => startAuth(call) },
  { method: "POST", path: "auth/token", handle: (call) => receiveToken(call) },
  { method: "GET", path: "auth/token/content", handle: (call) => tokenContent(call) },
  { method: "POST", path: "pis/payment", handle: (call) => initiatePayment(call) },
  {
    method: "GET",
    path: "pis/payment/:id",
    handle: (call, [id = ""]) => paymentJson(ownPayment(call, id), call.version),
  },
  {
    method: "GET",
    path: "pis/payment/:id/status",
    handle: (call, [id = ""]) => paymentStatusJson(ownPayment(call, id), call.version),
  },
  {
    method: "POST",
    path: "pis/payment/:id/refunds",
    feature: "refunds",
    handle: (call, [id = ""]) => createRefund(call, id),
  },
  {
    method: "GET",
    path: "pis/payment/:id/refunds",
    feature: "refunds",
    handle: (call, [id = ""]) => listRefunds(call, id),
  },
  { method: "GET", path: "ais/accounts", feature: "ais", handle: (call) => listAccounts(call) },
  { method: "GET", path: "ais/accounts/:id", feature: "ais", handle: (call, [id = ""]) => accountDetails(call, id) },
  {
    method: "GET",
    path: "ais/accounts/:id/transactions",
    feature: "ais",
    handle: (call, [id = ""]) => accountTransactions(call, id),
  },
  {
    method: "GET",
    path: "ais/accounts/:id/balance",
    feature: "ais",
    handle: (call, [id = ""]) => accountBalance(call, id),
  },
];

function match(route: Route, segments: string[]): string[] | undefined {
  const pattern = route.path.split("/");
  if (pattern.length !== segments.length) return undefined;
  const params: string[] = [];
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i] ?? "";
    if (part.startsWith(":")) params.push(segment);
    else if (part !== segment) return undefined;
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw apiErrors.notFound("Route");
  }
}

/**
 * Answers one API call with the body of its 200. `path` is what follows `/platform/v0.x`. Every
 * call needs the project's Client-Id and Client-Secret, checked before anything else, as the
 * provider does; a route missing in this version is as unknown as a made-up one.
 */
export async function handleApi(
  ctx: SandboxContext,
  req: IncomingMessage,
  method: string,
  version: ApiVersion,
  path: string,
  url: URL,
): Promise<unknown> {
  const project = authenticate(ctx.store.projects, header(req, "client-id"), header(req, "client-secret"));
  if (!project) throw apiErrors.unauthorized();
  const segments = path.split("/").filter(Boolean).map(decodeSegment);
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const params = match(route, segments);
    if (!params) continue;
    if (route.feature && !supports(version, route.feature)) break;
    return await route.handle({ ctx, req, url, version, project }, params);
  }
  throw apiErrors.notFound("Route");
}

/**
 * `/platform/frame/{countries|banks}/{token}`, the API of the hosted page and the mobile SDKs
 * (provider-api.md 3): no version and no merchant credentials, the token (a payment id or an
 * account link's state) stands for them.
 */
export function handleFrameApi(ctx: SandboxContext, method: string, path: string, url: URL): unknown {
  const [list, token, ...extra] = path.split("/").filter(Boolean).map(decodeSegment);
  if (method !== "GET" || token === undefined || extra.length > 0 || (list !== "countries" && list !== "banks"))
    throw apiErrors.notFound("Route");
  if (!ctx.store.payments.has(token) && !ctx.store.authRequests.has(token))
    throw apiErrors.notFound("Payment or account link");
  // The SDKs' bank (AND ApiBank) requires isBeta, which only v0.3's Bank has.
  return list === "countries" ? countryList() : bankList(ctx, url, true);
}
