import { PAYER_HANDLE_COOKIE, PAYER_HANDLE_MAX_AGE_S } from "../checkout/saved-accounts/payer-handle";

/** The browser's payer handle (ADR 11) from a request's Cookie header. */
export function readPayerHandle(req: Request): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === PAYER_HANDLE_COOKIE) return value.join("=");
  }
  return undefined;
}

/**
 * The Set-Cookie value that keeps the handle. HttpOnly: page scripts never see it. SameSite=Lax:
 * it still comes along on the top-level return from the provider's pages.
 */
export function payerHandleCookie(handle: string, appUrl: string): string {
  const secure = appUrl.startsWith("https:") ? "; Secure" : "";
  return `${PAYER_HANDLE_COOKIE}=${handle}; Path=/; Max-Age=${PAYER_HANDLE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`;
}
