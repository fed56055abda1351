/**
 * Reads a request body up to `maxBytes` and no further. A declared Content-Length over the limit
 * is refused before a byte is read; a body that streams past it (chunked, or lying about its
 * length) is cut off as soon as it does, so a 10 MB upload costs us 64 KB, not 10 MB.
 */
/** The most any request of ours needs: JSON and form bodies are a few hundred bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`request body over ${maxBytes} bytes`);
  }
}

/** The body is not UTF-8 text. */
export class BodyNotText extends Error {}

export async function readBodyLimited(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge(maxBytes);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new BodyNotText("the request body is not UTF-8 text");
  }
}

/**
 * A form field that holds JSON (a WebAuthn answer sent through a server action, whose bodies are
 * forms): the parsed value, or undefined when absent, too long or not JSON. The caller's zod
 * schema says what it must be.
 */
export function jsonFormField(form: FormData, name: string, maxLength = 32_768): unknown {
  const raw = form.get(name);
  if (typeof raw !== "string" || raw.length > maxLength) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
