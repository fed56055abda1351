import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentials, paymentBody, startSandbox, type RunningSandbox } from "./test-helpers";

/**
 * The official PHP client writes requests by hand, reads until the server closes, and splits the
 * answer at the first blank line (provider-api.md 0.5). These tests talk to the sandbox the same way.
 */

let s: RunningSandbox;
let port: number;

beforeAll(async () => {
  s = await startSandbox();
  port = Number(new URL(s.baseUrl).port);
});
afterAll(async () => {
  await s.sandbox.close();
});

interface RawReply {
  statusLine: string;
  headers: Map<string, string>;
  body: string;
}

/** Sends raw bytes and reads until the server closes the connection, as the PHP client does. */
function rawExchange(request: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.setTimeout(5_000, () => socket.destroy(new Error("server did not close the connection")));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n");
      const headers = new Map(
        lines.map((line) => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as [string, string];
        }),
      );
      resolve({ statusLine, headers, body: text.slice(split + 4) });
    });
  });
}

function phpStyleRequest(method: string, path: string, extraHeaders: string[], body?: string): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    "Host: localhost",
    "Accept: */*",
    "Accept-Encoding: *",
    `Client-Id: ${credentials["Client-Id"]}`,
    `Client-Secret: ${credentials["Client-Secret"]}`,
    ...extraHeaders,
    "Connection: Close",
    "",
  ];
  // The client writes each element followed by CRLF and the body as "$json\r\n": so four stray
  // bytes (CRLF CRLF) follow a body whose Content-Length does not count them.
  if (body !== undefined) lines.push(`${body}\r\n`);
  return lines.map((line) => `${line}\r\n`).join("");
}

describe("on the wire", () => {
  it("answers a GET with 200 OK, a Content-Length, no chunking, no compression, then closes", async () => {
    const reply = await rawExchange(phpStyleRequest("GET", "/platform/v0.3/auth/banks?countryCode=LT", []));
    expect(reply.statusLine).toBe("HTTP/1.1 200 OK");
    expect(reply.headers.get("content-length")).toBe(String(Buffer.byteLength(reply.body)));
    expect(reply.headers.has("transfer-encoding")).toBe(false);
    expect(reply.headers.has("content-encoding")).toBe(false);
    expect(reply.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(reply.headers.get("connection")).toBe("close");
    expect((JSON.parse(reply.body) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it("accepts a POST followed by the PHP client's stray CRLF CRLF", async () => {
    const body = JSON.stringify(paymentBody());
    const reply = await rawExchange(
      phpStyleRequest(
        "POST",
        "/platform/v0.3/pis/payment",
        ["Redirect-URL: https://shop.example/return", "Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`],
        body,
      ),
    );
    expect(reply.statusLine).toBe("HTTP/1.1 200 OK");
    expect(reply.headers.get("content-length")).toBe(String(Buffer.byteLength(reply.body)));
    expect(reply.headers.has("transfer-encoding")).toBe(false);
    expect(JSON.parse(reply.body)).toMatchObject({ bankStatus: "STRD", statusGroup: "started" });
  });

  it("accepts the stray bytes when a client counts them in Content-Length", async () => {
    const body = `${JSON.stringify(paymentBody())}\r\n\r\n`;
    const reply = await rawExchange(
      phpStyleRequest(
        "POST",
        "/platform/v0.3/pis/payment",
        ["Redirect-URL: https://shop.example/return", "Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`],
      ) + body,
    );
    expect(reply.statusLine).toBe("HTTP/1.1 200 OK");
  });

  it("sends 400 error bodies with a Content-Length too", async () => {
    const reply = await rawExchange(phpStyleRequest("GET", "/platform/v0.3/auth/banks?countryCode=xx", []));
    expect(reply.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expect(reply.headers.get("content-length")).toBe(String(Buffer.byteLength(reply.body)));
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: 10015 } });
  });
});
