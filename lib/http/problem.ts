import type { Problem } from "../checkout/contract";
import { ERRORS, errorMessageId, type ErrorCode } from "../errors";
import { en } from "../i18n/messages/en";

export const NO_STORE = { "Cache-Control": "no-store" } as const;

/** The code's English message: a problem's title is the same for every answer with that code. */
export const problemTitle = (code: ErrorCode): string => en[errorMessageId(code)];

/** An error answer (RFC 9457 problem+json) for one code of lib/errors.ts. */
export function problem(
  code: ErrorCode,
  extra: Pick<Problem, "detail" | "errors"> = {},
  headers: Record<string, string> = {},
): Response {
  const { status, retry } = ERRORS[code];
  const body: Problem = {
    type: `about:blank#${code}`,
    title: problemTitle(code),
    status,
    code,
    retry,
    ...definedOnly(extra),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/problem+json", ...NO_STORE, ...headers },
  });
}

const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Sent with an answer that is an earlier request's, found by its Idempotency-Key (Stripe's header). */
export const IDEMPOTENT_REPLAYED = { "Idempotent-Replayed": "true" } as const;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...NO_STORE, ...headers },
  });
}

/**
 * An answer caches may keep and revalidate (JSON unless said otherwise): with its strong ETag,
 * and 304 with no body when the request already holds that version (If-None-Match).
 */
export function cacheable(
  req: Request,
  answer: { body: string; etag: string; contentType?: string },
  cacheControl: string,
  extraHeaders: Record<string, string> = {},
): Response {
  const headers = { ...extraHeaders, "Cache-Control": cacheControl, ETag: answer.etag };
  const held = req.headers.get("if-none-match");
  if (held && (held.trim() === "*" || held.split(",").some((tag) => tag.trim() === answer.etag))) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(answer.body, {
    status: 200,
    headers: { "Content-Type": answer.contentType ?? "application/json", ...headers },
  });
}

/** On to another page (303: the browser follows with GET), e.g. after a form it posted by itself. */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: location, ...NO_STORE, ...headers } });
}
