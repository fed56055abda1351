import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTROL,
  createPayment,
  credentials,
  linkAccount,
  payAtBank,
  paymentBody,
  startSandbox,
  type RunningSandbox,
} from "./test-helpers";

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
        [
          "Redirect-URL: https://shop.example/return",
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
        ],
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
      phpStyleRequest("POST", "/platform/v0.3/pis/payment", [
        "Redirect-URL: https://shop.example/return",
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
      ]) + body,
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

describe("on the wire, every endpoint and version", () => {
  function expectPlainReply(reply: RawReply, status: string) {
    expect(reply.statusLine).toBe(status);
    expect(reply.headers.get("content-length")).toBe(String(Buffer.byteLength(reply.body)));
    expect(reply.headers.has("transfer-encoding")).toBe(false);
    expect(reply.headers.has("content-encoding")).toBe(false);
    expect(reply.headers.get("connection")).toBe("close");
    expect(() => JSON.parse(reply.body) as unknown).not.toThrow();
  }

  it("answers GETs plainly, success exactly 200 and errors 400/401/404 with the envelope", async () => {
    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND" });
    await payAtBank(confirmLink);
    const token = (await linkAccount(s.api, "accounts_basic")).accessToken;
    const psu = [
      "PSU-IP-Address: 192.0.2.1",
      "PSU-IP-Port: 443",
      "PSU-User-Agent: php",
      "PSU-Http-Method: GET",
      "PSU-Device-ID: d",
    ];
    const cases: [string, string[], string][] = [
      ["/auth/countries", [], "HTTP/1.1 200 OK"],
      ["/auth/banks/SEB_LT_SAND", [], "HTTP/1.1 200 OK"],
      [`/pis/payment/${id}`, [], "HTTP/1.1 200 OK"],
      [`/pis/payment/${id}/status`, [], "HTTP/1.1 200 OK"],
      ["/auth/banks/NOPE", [], "HTTP/1.1 404 Not Found"],
      ["/auth/banks?countryCode=x", [], "HTTP/1.1 400 Bad Request"],
    ];
    for (const version of ["v0.1", "v0.2", "v0.3"]) {
      for (const [path, headers, status] of cases)
        expectPlainReply(await rawExchange(phpStyleRequest("GET", `/platform/${version}${path}`, headers)), status);
    }
    const v03: [string, string[], string][] = [
      ["/auth/paymentMethods", [], "HTTP/1.1 200 OK"],
      ["/auth/project/settings", [], "HTTP/1.1 200 OK"],
      ["/auth/banks/cards/411111", [], "HTTP/1.1 200 OK"],
      [`/pis/payment/${id}/refunds`, [], "HTTP/1.1 200 OK"],
      ["/auth/token/content", [`Authorization: Bearer ${token}`], "HTTP/1.1 200 OK"],
      ["/ais/accounts", [`Authorization: Bearer ${token}`, ...psu], "HTTP/1.1 200 OK"],
      ["/ais/accounts", [`Authorization: Bearer ${token}`], "HTTP/1.1 400 Bad Request"],
      ["/auth/token/content", [], "HTTP/1.1 401 Unauthorized"],
    ];
    for (const [path, headers, status] of v03)
      expectPlainReply(await rawExchange(phpStyleRequest("GET", `/platform/v0.3${path}`, headers)), status);
    const noCredentials = await rawExchange(
      phpStyleRequest("GET", "/platform/v0.3/auth/banks", []).replace(/Client-Secret: .*\r\n/, ""),
    );
    expectPlainReply(noCredentials, "HTTP/1.1 401 Unauthorized");
  });

  it("takes POST /auth with PHP's percent-encoded scopes%5B0%5D, and POST bodies with stray CRLFs", async () => {
    const auth = await rawExchange(
      phpStyleRequest(
        "POST",
        "/platform/v0.3/auth?scopes%5B0%5D=payments&scopes%5B1%5D=accounts_basic&bankId=SEB_LT_SAND",
        [
          "Request-Id: php-1",
          "Redirect-URL: https://shop.example/linked",
          "Content-Type: application/json",
          "Content-Length: 2",
        ],
        "{}",
      ),
    );
    expectPlainReply(auth, "HTTP/1.1 200 OK");
    expect(JSON.parse(auth.body)).toMatchObject({ authorizationLink: expect.stringContaining("/auth/") });

    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND" });
    await payAtBank(confirmLink);
    const body = JSON.stringify({ amount: "1.00" });
    const refund = await rawExchange(
      phpStyleRequest(
        "POST",
        `/platform/v0.3/pis/payment/${id}/refunds`,
        ["Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`],
        body,
      ),
    );
    expectPlainReply(refund, "HTTP/1.1 200 OK");
    const token = JSON.stringify({ grantType: "refreshToken", refreshToken: "nope" });
    const grant = await rawExchange(
      phpStyleRequest(
        "POST",
        "/platform/v0.3/auth/token",
        ["Content-Type: application/json", `Content-Length: ${Buffer.byteLength(token)}`],
        token,
      ),
    );
    expectPlainReply(grant, "HTTP/1.1 400 Bad Request");
  });

  it("answers an injected provider error as a plain 500 with the envelope", async () => {
    await fetch(`${s.baseUrl}/_sandbox/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...CONTROL },
      body: JSON.stringify({ mode: "error", count: 1 }),
    });
    const reply = await rawExchange(phpStyleRequest("GET", "/platform/v0.3/auth/countries", []));
    expectPlainReply(reply, "HTTP/1.1 500 Internal Server Error");
    expect(JSON.parse(reply.body)).toEqual({
      error: { code: 10000, name: "SystemError", description: "Internal error." },
      data: {},
    });
  });
});
