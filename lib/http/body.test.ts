import { describe, expect, it } from "vitest";
import { BodyNotText, BodyTooLarge, readBodyLimited } from "./body";

/** A body of `chunks` chunks of `size` bytes that counts how many were pulled. */
function streamed(chunks: number, size: number) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
  const req = new Request("http://app.test/x", { method: "POST", body, duplex: "half" } as RequestInit);
  return { req, pulled: () => pulled };
}

describe("reading a request body with a limit", () => {
  it("reads a body within the limit as text", async () => {
    const req = new Request("http://app.test/x", { method: "POST", body: '{"a":"ā"}' });
    await expect(readBodyLimited(req, 64)).resolves.toBe('{"a":"ā"}');
  });

  it("refuses a declared Content-Length over the limit without reading the body", async () => {
    const { req, pulled } = streamed(160, 64 * 1024);
    const declared = new Request(req, { headers: { "content-length": String(10 * 1024 * 1024) } });
    await expect(readBodyLimited(declared, 64 * 1024)).rejects.toBeInstanceOf(BodyTooLarge);
    expect(pulled()).toBeLessThanOrEqual(2); // what the stream buffers by itself
  });

  it("stops reading a streamed body as soon as it passes the limit (10 MB sent, about 64 KB read)", async () => {
    const { req, pulled } = streamed(160, 64 * 1024);
    await expect(readBodyLimited(req, 64 * 1024)).rejects.toBeInstanceOf(BodyTooLarge);
    expect(pulled()).toBeLessThanOrEqual(3);
  });

  it("refuses bytes that are not UTF-8", async () => {
    const req = new Request("http://app.test/x", { method: "POST", body: new Uint8Array([0xff, 0xfe, 0x00]) });
    await expect(readBodyLimited(req, 64)).rejects.toBeInstanceOf(BodyNotText);
  });
});
