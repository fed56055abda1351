/** The value as a URL when it is a plain http(s) one; anything else (javascript:, data:, junk) is null. */
export function httpUrl(value: unknown): URL | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/** The merchant's return URL with the checkout id, or null if it is not an http(s) URL. */
export function shopLink(returnUrl: string, checkoutId: string): string | null {
  const url = httpUrl(returnUrl);
  if (!url) return null;
  url.searchParams.set("checkout", checkoutId);
  return url.href;
}
