import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrivateAddressError, postToMerchant } from "./merchant-post";

describe("posting to a merchant URL", () => {
  let server: Server;
  let port = 0;
  const bodies: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        bodies.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  const post = (url: string, allowPrivate: boolean, resolve?: Parameters<typeof postToMerchant>[1]["resolve"]) =>
    postToMerchant(url, {
      headers: { "Content-Type": "application/json" },
      body: '{"n":1}',
      timeoutMs: 2000,
      allowPrivate,
      resolve,
    });

  it("delivers and answers the status where private addresses are allowed (the sandbox)", async () => {
    expect(await post(`http://127.0.0.1:${port}/n`, true)).toBe(204);
    expect(bodies.at(-1)).toBe('{"n":1}');
  });

  it("does not connect to this machine or a private network otherwise, written as an address or a name", async () => {
    const before = bodies.length;
    await expect(post(`http://127.0.0.1:${port}/n`, false)).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(post(`http://localhost:${port}/n`, false)).rejects.toBeInstanceOf(PrivateAddressError);
    expect(bodies.length).toBe(before);
  });

  it("does not connect where a public-looking name resolves to a private address (DNS rebinding)", async () => {
    const before = bodies.length;
    const rebinding = (_host: string, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: "127.0.0.1", family: 4 }]);
    await expect(post(`http://hooks.shop.example:${port}/n`, false, rebinding)).rejects.toBeInstanceOf(
      PrivateAddressError,
    );
    expect(bodies.length).toBe(before);
    // The same name, allowed, connects to the address it resolved to.
    expect(await post(`http://hooks.shop.example:${port}/n`, true, rebinding)).toBe(204);
  });
});
