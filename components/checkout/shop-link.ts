/** The merchant's return URL with the checkout id, or null if it is not an http(s) URL. */
export function shopLink(returnUrl: string, checkoutId: string): string | null {
  try {
    const url = new URL(returnUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    url.searchParams.set("checkout", checkoutId);
    return url.href;
  } catch {
    return null;
  }
}
