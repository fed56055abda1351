import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpSend } from "./send";

// The real provider is HTTPS (https://api.kevin.eu): the sender must speak TLS and must check the
// provider's certificate. A self-signed certificate made here stands in for it.
let server: https.Server;
let url: URL;
let cert: string;
beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "send-tls-"));
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
      ...["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
      ...["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")],
    ],
    { stdio: "ignore" },
  );
  cert = readFileSync(path.join(dir, "cert.pem"), "utf8");
  const key = readFileSync(path.join(dir, "key.pem"), "utf8");
  rmSync(dir, { recursive: true, force: true });
  server = https.createServer({ key, cert }, (req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ got: body })));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/platform/v0.3/pis/payment`);
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("a provider over HTTPS", () => {
  it("is refused when its certificate is not one we trust", async () => {
    await expect(httpSend(url, { method: "GET", headers: {}, timeoutMs: 2000 })).rejects.toMatchObject({
      code: "DEPTH_ZERO_SELF_SIGNED_CERT",
    });
  });

  it("is spoken to over TLS when its certificate is trusted", async () => {
    const trusted = https.globalAgent.options.ca;
    https.globalAgent.options.ca = cert;
    try {
      const sent = await httpSend(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: '{"description":"Užsakymas"}',
        timeoutMs: 2000,
      });
      expect(sent).toEqual({ status: 200, text: JSON.stringify({ got: '{"description":"Užsakymas"}' }) });
    } finally {
      https.globalAgent.options.ca = trusted;
    }
  });
});
