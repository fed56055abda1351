import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorKey } from "./i18n";

/**
 * Reply helpers. The provider's official PHP client writes HTTP/1.1 by hand and reads the answer
 * until the socket closes, splitting headers from body at the first blank line (provider-api.md
 * 0.5). So every reply here has a Content-Length, is never chunked or compressed, and API replies
 * close the connection.
 */

export type ErrorStatus = 400 | 401 | 404 | 421 | 500;

/** An error the API answers with the provider's envelope `{"error":{code,name,description},"data"}`. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: number,
    readonly errorName: string,
    readonly description: string,
    readonly data: unknown = {},
  ) {
    super(`${errorName}: ${description}`);
  }

  toBody() {
    return { error: { code: this.code, name: this.errorName, description: this.description }, data: this.data };
  }
}

/**
 * Every error the sandbox answers with. Only InvalidCountryCode (10015), InvalidRedirect and the
 * codes 10000, 10005, 10021 and 11000 are known from the real provider; the other codes and names
 * are sandbox choices, listed in README.md so clients can rely on them.
 */
export const apiErrors = {
  unauthorized: () => new ApiError(401, 10001, "Unauthorized", "Client-Id or Client-Secret is missing or invalid."),
  invalidToken: () => new ApiError(401, 10005, "InvalidToken", "The access token is missing, invalid or expired."),
  insufficientScope: (scope: string) =>
    new ApiError(401, 10025, "InsufficientScope", `The access token does not grant the "${scope}" scope.`),
  notFound: (what: string) => new ApiError(404, 10004, "NotFound", `${what} not found.`),
  invalidCountryCode: () => new ApiError(400, 10015, "InvalidCountryCode", "Invalid country code."),
  invalidRedirect: () => new ApiError(400, 10016, "InvalidRedirect", "Redirect-URL must be an absolute http(s) URL."),
  invalidWebhookUrl: () =>
    new ApiError(400, 10017, "InvalidWebhookUrl", "Webhook-URL must be an absolute http(s) URL."),
  invalidBankId: (bankId: string, why = "is not available") =>
    new ApiError(400, 10018, "InvalidBankId", `Bank "${bankId}" ${why}.`),
  invalidRequest: (data: unknown) => new ApiError(400, 10019, "InvalidRequest", "Invalid request.", data),
  invalidPaymentMethod: (description: string) => new ApiError(400, 10020, "InvalidPaymentMethod", description),
  invalidPaymentData: (data: unknown) => new ApiError(400, 10021, "InvalidPaymentData", "Invalid payment data.", data),
  invalidScopes: (data: unknown) => new ApiError(400, 10022, "InvalidScopes", "Invalid scopes.", data),
  invalidGrant: (description: string) => new ApiError(400, 10023, "InvalidGrant", description),
  refundNotAllowed: (description: string) => new ApiError(400, 10026, "RefundNotAllowed", description),
  refundAmountExceeded: (available: string) =>
    new ApiError(
      400,
      10027,
      "RefundAmountExceeded",
      `The refunds would exceed the paid amount; at most ${available} can still be refunded.`,
    ),
  refundCurrencyNotSupported: (currency: string) =>
    new ApiError(
      400,
      10028,
      "RefundCurrencyNotSupported",
      `Refunds are possible in EUR and PLN only, not ${currency}.`,
    ),
  invalidPsuHeaders: (data: unknown) =>
    new ApiError(400, 11000, "InvalidPsuHeaders", "PSU headers are missing or invalid.", data),
  system: () => new ApiError(500, 10000, "SystemError", "Internal error."),
};

/** Thrown by the hosted pages; rendered as a plain HTML error page. */
export class PageError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 421,
    /** An i18n key of the page's heading. */
    readonly titleKey: ErrorKey,
  ) {
    super(titleKey);
  }
}

interface ReplyOptions {
  headers?: Record<string, string>;
  /** Close the connection after the reply even when the client did not ask to. */
  close?: boolean;
}

export function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  opts: ReplyOptions = {},
) {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  res.statusCode = status;
  res.setHeader("Content-Type", contentType);
  res.setHeader("Content-Length", bytes.length);
  for (const [name, value] of Object.entries(opts.headers ?? {})) res.setHeader(name, value);
  if (opts.close) res.setHeader("Connection", "close");
  res.end(bytes);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, opts: ReplyOptions = {}) {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value), opts);
}

export function sendApiError(res: ServerResponse, error: ApiError) {
  sendJson(res, error.status, error.toBody(), { close: true });
}

export function sendHtml(res: ServerResponse, status: number, html: string) {
  // Hosted pages show live payment state: a cached copy after Back would offer a stale Approve.
  send(res, status, "text/html; charset=utf-8", html, {
    headers: {
      "Cache-Control": "no-store",
      "Content-Security-Policy":
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    },
  });
}

/** 303 so that a POSTed form step is followed by a GET (Back and reload never re-submit). */
export function redirect303(res: ServerResponse, location: string, headers: Record<string, string> = {}) {
  res.statusCode = 303;
  res.setHeader("Location", location);
  res.setHeader("Content-Length", 0);
  res.setHeader("Cache-Control", "no-store");
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end();
}

const MAX_BODY_BYTES = 64 * 1024;

/** The request body as text, with surrounding whitespace (the PHP client's stray CRLFs) trimmed. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  // Keep reading past the limit so the client still gets our 400 instead of a reset connection.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  }
  if (tooLarge) throw apiErrors.invalidRequest(`"value" must be at most ${MAX_BODY_BYTES} bytes`);
  return Buffer.concat(chunks).toString("utf8").trim();
}

/** A form post (application/x-www-form-urlencoded) from a hosted page. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  try {
    return new URLSearchParams(await readBody(req));
  } catch {
    throw new PageError(400, "formUnreadable");
  }
}

/** A cookie of the request, by name. */
export function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (header(req, "cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Appends parameters to a URL (provider-api.md 8: with "&" when it already has a query) without
 * re-serialising it, so the merchant's own query, maybe signed, stays byte for byte.
 */
export function appendQuery(url: string, params: Record<string, string | undefined>): string {
  const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (defined.length === 0) return url;
  const hashAt = url.indexOf("#");
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? "" : url.slice(hashAt);
  const separator = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&";
  return `${base}${separator}${new URLSearchParams(defined).toString()}${fragment}`;
}

/** True for an absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}
