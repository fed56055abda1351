import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { clientIp, clientKey, PEER_HEADER, stampPeerAddress } from "./client-address";

const h = (init: Record<string, string>) => new Headers(init);

describe("clientIp", () => {
  it("with no trusted proxy, is the socket's address, whatever X-Forwarded-For the client wrote", () => {
    expect(clientIp(h({ [PEER_HEADER]: "203.0.113.9", "x-forwarded-for": "6.6.6.6" }), 0)).toBe("203.0.113.9");
    expect(clientIp(h({ [PEER_HEADER]: "::ffff:203.0.113.9" }), 0)).toBe("203.0.113.9");
  });

  it("behind N trusted proxies, is the Nth X-Forwarded-For entry from the right", () => {
    const headers = h({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 198.51.100.7 , 10.0.0.1" });
    expect(clientIp(headers, 1)).toBe("10.0.0.1");
    expect(clientIp(headers, 2)).toBe("198.51.100.7");
  });

  it("falls back to the socket's address when the chain is shorter than the proxies configured", () => {
    expect(clientIp(h({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6" }), 2)).toBe("10.0.0.2");
    expect(clientIp(h({}), 0)).toBe("unknown");
  });
});

describe("clientKey", () => {
  it("counts an IPv4 client by its address, and an IPv6 one by the /64 it was given, however it is written", () => {
    expect(clientKey(h({ [PEER_HEADER]: "203.0.113.9" }), 0)).toBe("203.0.113.9");
    expect(clientKey(h({ [PEER_HEADER]: "::ffff:203.0.113.9" }), 0)).toBe("203.0.113.9");
    const keys = [
      "2001:db8:1234:5678::1",
      "2001:db8:1234:5678::2",
      "2001:0DB8:1234:5678:1a::1",
      "2001:db8:1234:5678:ffff:ffff:ffff:ffff",
    ].map((address) => clientKey(h({ "x-forwarded-for": address }), 1));
    expect(new Set(keys)).toEqual(new Set(["2001:db8:1234:5678::/64"]));
    expect(clientKey(h({ "x-forwarded-for": "2001:db8:1234:5679::1" }), 1)).toBe("2001:db8:1234:5679::/64");
    expect(clientKey(h({}), 0)).toBe("unknown");
  });
});

describe("stampPeerAddress", () => {
  it("puts the socket's address on every request a Node server receives, over a forged header of that name", async () => {
    await stampPeerAddress();
    let seen: IncomingHttpHeaders = {};
    const server = createServer((req, res) => {
      seen = req.headers;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        headers: { [PEER_HEADER]: "6.6.6.6", "x-forwarded-for": "6.6.6.6" },
      });
    } finally {
      server.close();
    }
    expect(seen[PEER_HEADER]).toBe("127.0.0.1");
    expect(clientIp(new Headers(seen as Record<string, string>), 0)).toBe("127.0.0.1");
  });
});
