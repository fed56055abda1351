import type { Problem } from "../checkout/types";

export const NO_STORE = { "Cache-Control": "no-store" } as const;

export function problem(status: number, code: string, title: string, extra: Pick<Problem, "detail" | "errors"> = {}): Response {
  const body: Problem = { type: `about:blank#${code}`, title, status, code, ...extra };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/problem+json", ...NO_STORE },
  });
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...NO_STORE, ...headers } });
}
