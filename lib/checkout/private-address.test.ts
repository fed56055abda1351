import { describe, expect, it } from "vitest";
import { isPrivateAddress, isPrivateHost } from "./private-address";

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

  it("judges resolved addresses the same way", () => {
    expect(isPrivateAddress("10.0.0.7")).toBe(true);
    expect(isPrivateAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("not an address")).toBe(true);
  });
});
