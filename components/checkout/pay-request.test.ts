import { describe, expect, it } from "vitest";
import { ApiError } from "@/components/query/fetch-json";
import { httpUrl, shopLink } from "./links";
import { explain, linkToFollow } from "./pay-request";

const refusal = (code: string | null, status = 409) => new ApiError("refused", status, code, null);

describe("linkToFollow", () => {
  it("follows a plain http(s) link", () => {
    expect(linkToFollow("https://bank.example/confirm?x=1")).toBe("https://bank.example/confirm?x=1");
  });

  it.each([["javascript:alert(1)"], ["data:text/html,hi"], ["not a url"], [undefined], [42]])("refuses %s as bad_link", (link) => {
    expect(() => linkToFollow(link)).toThrow(expect.objectContaining({ code: "bad_link" }));
  });
});

describe("explain", () => {
  it("a provider failure: try again with a new attempt", () => {
    expect(explain(refusal("provider_error", 502))).toEqual({ key: "payError.providerError", retry: true, reload: false, newKey: true });
  });

  it("an order that ended meanwhile: reload, no retry", () => {
    expect(explain(refusal("already_paid"))).toMatchObject({ key: "payError.ended", retry: false, reload: true });
  });

  it("a saved account that ended: reload with a new attempt key", () => {
    expect(explain(refusal("no_saved_account"))).toMatchObject({ key: "payError.savedEnded", reload: true, newKey: true });
  });

  it("no connection: a network message with retry", () => {
    expect(explain(new ApiError("network error", 0, null, null))).toMatchObject({ key: "payError.network", retry: true });
  });

  it("an unknown code, a code named like an object property, or a non-API error: the generic message", () => {
    for (const err of [refusal("something_new", 500), refusal("toString"), new Error("boom")]) {
      expect(explain(err)).toEqual({ key: "payError.generic", retry: true, reload: false, newKey: false });
    }
  });
});

describe("links", () => {
  it("shopLink adds the checkout id to an http(s) return URL and refuses other schemes", () => {
    expect(shopLink("https://shop.example/done?o=7", "co_1")).toBe("https://shop.example/done?o=7&checkout=co_1");
    expect(shopLink("javascript:alert(1)", "co_1")).toBeNull();
    expect(httpUrl("ftp://x.example/")).toBeNull();
  });
});
