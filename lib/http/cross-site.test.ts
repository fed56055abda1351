import { describe, expect, it } from "vitest";
import { crossSiteRequest, declaredJson } from "./cross-site";

const h = (init: Record<string, string>) => new Headers({ host: "pay.shop.example", ...init });

describe("crossSiteRequest", () => {
  it("refuses another site's page, by Origin or by Sec-Fetch-Site, and a sibling host", () => {
    expect(crossSiteRequest(h({ origin: "https://evil.example" }))).toBe(true);
    expect(crossSiteRequest(h({ "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(crossSiteRequest(h({ "sec-fetch-site": "same-site", origin: "https://blog.shop.example" }))).toBe(true);
    expect(crossSiteRequest(h({ origin: "null" }))).toBe(true);
  });

  it("takes our own pages, behind a proxy too, and a server that sends no browser headers", () => {
    expect(crossSiteRequest(h({ origin: "https://pay.shop.example", "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(
      crossSiteRequest(
        new Headers({ host: "app:3000", "x-forwarded-host": "pay.shop.example", origin: "https://pay.shop.example" }),
      ),
    ).toBe(false);
    expect(crossSiteRequest(h({ "sec-fetch-site": "none" }))).toBe(false);
    expect(crossSiteRequest(h({}))).toBe(false);
  });
});

describe("declaredJson", () => {
  it("takes application/json with or without parameters, and +json types", () => {
    for (const t of ["application/json", "Application/JSON; charset=utf-8", "application/merge-patch+json"])
      expect([t, declaredJson(new Headers({ "content-type": t }))]).toEqual([t, true]);
  });

  it("refuses what a form can send, and no type at all", () => {
    for (const t of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "",
      "application/jsonp",
    ])
      expect([t, declaredJson(new Headers(t ? { "content-type": t } : {}))]).toEqual([t, false]);
  });
});
