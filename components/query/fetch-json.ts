import type { Problem } from "@/lib/checkout/contract";

/**
 * The one fetch behind every query and mutation of the client islands (react-query runs it, it
 * does not fetch by itself): same-origin JSON calls. Every failure becomes an ApiError carrying the HTTP
 * status (0 when the server could not be reached) and the problem's stable `code`. Components turn
 * the code into a sentence from the message catalogue; the server's own wording and codes are
 * never shown to the payer.
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

function isProblem(value: unknown): value is Problem {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { title?: unknown }).title === "string" &&
    typeof (value as { status?: unknown }).status === "number"
  );
}

export async function fetchJson<T>(input: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(input, {
      ...init,
      headers: {
        Accept: "application/json",
        ...(init?.body ? { "Content-Type": "application/json" } : {}),
        ...init?.headers,
      },
      cache: "no-store",
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError("network error", 0, null, null);
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    if (isProblem(body)) throw new ApiError(body.title, response.status, body.code ?? null, body);
    throw new ApiError(`HTTP ${response.status}`, response.status, null, null);
  }
  if (body === null) throw new ApiError("empty answer", response.status, null, null);
  return body as T;
}
