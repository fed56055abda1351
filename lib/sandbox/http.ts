import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Reply helpers. The provider's official PHP client writes HTTP/1.1 by hand and reads the answer
 * until the socket closes, splitting headers from body at the first blank line (provider-api.md
 * 0.5). So every reply here has a Content-Length, is never chunked or compressed, and API replies
 * close the connection.
 */

export type ErrorStatus = 400 | 401 | 404 | 500;

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
 * 10000/10021 codes are known from the real provider; the other codes and names are sandbox choices,
 * listed in README.md so clients can rely on them.
 */
export const apiErrors = {
  unauthorized: () => new ApiError(401, 10001, "Unauthorized", "Client-Id or Client-Secret is missing or invalid."),
  notFound: (what: string) => new ApiError(404, 10004, "NotFound", `${what} not found.`),
  invalidCountryCode: () => new ApiError(400, 10015, "InvalidCountryCode", "Invalid country code."),
  invalidRedirect: () => new ApiError(400, 10016, "InvalidRedirect", "Redirect-URL must be an absolute http(s) URL."),
  invalidWebhookUrl: () => new ApiError(400, 10017, "InvalidWebhookUrl", "Webhook-URL must be an absolute http(s) URL."),
  invalidBankId: (bankId: string) => new ApiError(400, 10018, "InvalidBankId", `Bank "${bankId}" is not available.`),
  invalidRequest: (data: unknown) => new ApiError(400, 10019, "InvalidRequest", "Invalid request.", data),
  invalidPaymentData: (data: unknown) => new ApiError(400, 10021, "InvalidPaymentData", "Invalid payment data.", data),
  system: () => new ApiError(500, 10000, "SystemError", "Internal error."),
};

/** Thrown by the hosted pages; rendered as a plain HTML error page. */
export class PageError extends Error {
  constructor(
    readonly status: 400 | 404,
    readonly title: string,
  ) {
    super(title);
  }
}

interface ReplyOptions {
  headers?: Record<string, string>;
  /** Close the connection after the reply even when the client did not ask to. */
  close?: boolean;
}

export function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer, opts: ReplyOptions = {}) {
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
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    },
  });
}

/** 303 so that a POSTed form step is followed by a GET (Back and reload never re-submit). */
export function redirect303(res: ServerResponse, location: string) {
  res.statusCode = 303;
  res.setHeader("Location", location);
  res.setHeader("Content-Length", 0);
  res.setHeader("Cache-Control", "no-store");
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
    throw new PageError(400, "The form could not be read.");
  }
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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
