import type { ApiErrorCode } from "./types.ts";

/**
 * What the client says when the API gave no answer it could read: none at all (`network_error`),
 * none in time (`timeout`), or one that is not the API's JSON (`unexpected_response`, e.g. a proxy's
 * error page).
 */
export type ClientErrorCode = "network_error" | "timeout" | "unexpected_response";
export type ErrorCode = ApiErrorCode | ClientErrorCode;

export interface FieldError {
  /** The field, dotted (`lineItems.0.unitAmount`), as the API names it. */
  path: string;
  message: string;
}

/** Every failed call throws this: branch on `code`, never on the wording. */
export class BankCheckoutError extends Error {
  override readonly name = "BankCheckoutError";
  readonly code: ErrorCode;
  /** The HTTP status; 0 when there was no answer. */
  readonly status: number;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  /** Whether the same request may work later (the API's own `retry`, or true for no answer). */
  readonly retry: boolean;
  /** The answer's X-Request-Id: quote it to the operator of the checkout. */
  readonly requestId: string | undefined;
  /** Seconds the API asked to wait (Retry-After), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    code: ErrorCode;
    status: number;
    title?: string;
    detail?: string;
    errors?: FieldError[];
    retry: boolean;
    requestId?: string;
    retryAfter?: number;
    cause?: unknown;
  }) {
    super(`${init.code}: ${init.detail ?? init.title ?? "request failed"}`, { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.retry = init.retry;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * The error for an answer that is not a success. A problem+json body gives its code and `retry`;
 * anything else is `unexpected_response`, which counts as "not answered" (retry) only when it is a
 * gateway's 502/503/504: then the proxy in front answered, not the API.
 */
export function errorFromAnswer(status: number, headers: Headers, text: string): BankCheckoutError {
  const requestId = headers.get("x-request-id") ?? undefined;
  const retryAfter = parseRetryAfter(headers.get("retry-after"));
  const problem = parseProblem(text);
  if (!problem)
    return new BankCheckoutError({
      code: "unexpected_response",
      status,
      detail: `HTTP ${status} without a problem+json body`,
      retry: GATEWAY_STATUSES.has(status),
      requestId,
      retryAfter,
    });
  return new BankCheckoutError({ ...problem, status, requestId, retryAfter });
}

function parseProblem(
  text: string,
): { code: ApiErrorCode; title?: string; detail?: string; errors: FieldError[]; retry: boolean } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(body) || typeof body.code !== "string" || typeof body.retry !== "boolean") return undefined;
  const errors = Array.isArray(body.errors)
    ? body.errors.filter(
        (e): e is FieldError => isRecord(e) && typeof e.path === "string" && typeof e.message === "string",
      )
    : [];
  return {
    // A newer app may answer a code this version does not list: it is passed on as it is.
    code: body.code as ApiErrorCode,
    title: typeof body.title === "string" ? body.title : undefined,
    detail: typeof body.detail === "string" ? body.detail : undefined,
    errors: errors.map(({ path, message }) => ({ path, message })),
    retry: body.retry,
  };
}

/** Retry-After in seconds; the HTTP-date form is not sent by the API, so it is ignored. */
function parseRetryAfter(value: string | null): number | undefined {
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
