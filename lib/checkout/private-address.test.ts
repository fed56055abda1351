import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { isPrivateAddress, isPrivateHost, ownAddressesOf } from "./private-address";

const hostOf = (url: string) => new URL(url).hostname;

describe("private hosts a merchant URL may not point at", () => {
  it("refuses this machine, private networks and cloud metadata, however the address is written", () => {
    for (const url of [
      "https://localhost/x",
      "https://app.localhost/x",
      "https://127.0.0.1/x",
      "https://2130706433/x", // 127.0.0.1 as one number
      "https://0x7f.1/x",
      "https://10.1.2.3/x",
      "https://172.20.0.5/x",
      "https://192.168.1.10/x",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/x",
      "https://0.0.0.0/x",
      "https://[::1]/x",
      "https://[fd00::1]/x",
      "https://[fe80::1]/x",
      "https://[::ffff:10.0.0.1]/x",
      "https://shop-backend/notify",
      "https://db.internal/x",
      "https://printer.local/x",
    ]) {
      expect([url, isPrivateHost(hostOf(url))]).toEqual([url, true]);
    }
  });

  it("takes public names and addresses", () => {
    for (const url of [
      "https://shop.example/done",
      "https://93.184.215.14/x",
      "https://[2606:4700::1111]/x",
      "https://172.32.0.1/x",
      "https://11.0.0.1/x",
    ]) {
      expect([url, isPrivateHost(hostOf(url))]).toEqual([url, false]);
    }
  });

  it("refuses the ranges set aside for documentation and relays, and private IPv4 inside IPv6", () => {
    for (const url of [
      "https://192.0.2.2/x", // TEST-NET-1
      "https://198.51.100.1/x", // TEST-NET-2
      "https://203.0.113.9/x", // TEST-NET-3
      "https://192.88.99.1/x", // 6to4 relays
      "https://[::ffff:192.0.2.2]/x",
      "https://[64:ff9b::a9fe:a9fe]/latest/meta-data", // NAT64 of 169.254.169.254
      "https://[64:ff9b:1::a00:1]/x", // local-use NAT64
      "https://[::a9fe:a9fe]/x", // IPv4-compatible, deprecated
      "https://[2002:a9fe:a9fe::]/x", // 6to4 of 169.254.169.254
      "https://[2002:c0a8:101::1]/x", // 6to4 of 192.168.1.1
      "https://[2001:db8::1]/x", // documentation
      "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x", // Teredo
      "https://[fec0::1]/x", // site-local, deprecated
      "https://[ff02::1]/x",
    ]) {
      expect([url, isPrivateHost(hostOf(url))]).toEqual([url, true]);
    }
    // 6to4 and NAT64 of a public address are public.
    expect(isPrivateHost(hostOf("https://[2002:808:808::1]/x"))).toBe(false);
    expect(isPrivateHost(hostOf("https://[64:ff9b::808:808]/x"))).toBe(false);
  });

  it("refuses this machine's own addresses, whatever network they are on", () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .map((i) => i?.address)
      .filter((a): a is string => typeof a === "string");
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    // A public address is refused when it is one of this machine's, in any of its spellings.
    const machine = ownAddressesOf({ eth0: [{ address: "93.184.215.14" }, { address: "2606:4700:0:0::1111" }] });
    expect(isPrivateAddress("93.184.215.14", machine)).toBe(true);
    expect(isPrivateAddress("::ffff:5db8:d70e", machine)).toBe(true);
    expect(isPrivateAddress("2606:4700::1111", machine)).toBe(true);
    expect(isPrivateAddress("93.184.215.15", machine)).toBe(false);
  });

  it("judges resolved addresses the same way", () => {
    expect(isPrivateAddress("10.0.0.7")).toBe(true);
    expect(isPrivateAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("not an address")).toBe(true);
  });
});
