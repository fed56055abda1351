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
