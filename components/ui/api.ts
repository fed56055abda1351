import type { Problem } from "@/lib/checkout/types";

/**
 * Same-origin JSON calls from client islands. Every failure becomes an ApiError carrying a
 * sentence a payer can read; raw problem codes are kept for logic but never shown.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly code: string | null,
    public readonly problem: Problem | null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

const NETWORK_MESSAGE = "We could not reach the server. Check your connection and try again.";
const GENERIC_MESSAGE = "Something went wrong on our side. Please try again.";

function isProblem(value: unknown): value is Problem {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { title?: unknown }).title === "string" &&
    typeof (value as { status?: unknown }).status === "number"
  );
}

function problemMessage(problem: Problem): string {
  const title = problem.title.trim();
  const detail = problem.detail?.trim();
  if (!detail || detail === title) return title || GENERIC_MESSAGE;
  if (!title) return detail;
  return /[.!?…]$/.test(title) ? `${title} ${detail}` : `${title}. ${detail}`;
}

export async function requestJson<T>(input: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(input, {
      ...init,
      headers: { Accept: "application/json", ...(init?.body ? { "Content-Type": "application/json" } : {}), ...init?.headers },
      cache: "no-store",
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(NETWORK_MESSAGE, 0, null, null);
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    if (isProblem(body)) throw new ApiError(problemMessage(body), response.status, body.code ?? null, body);
    throw new ApiError(GENERIC_MESSAGE, response.status, null, null);
  }
  if (body === null) throw new ApiError(GENERIC_MESSAGE, response.status, null, null);
  return body as T;
}

export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : GENERIC_MESSAGE;
}
