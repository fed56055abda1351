import { describe, expect, it } from "vitest";
import { httpUrl } from "./http-url";
import { shopLink } from "./links";

describe("the way back to the shop", () => {
  it("keeps the merchant's return URL byte for byte and adds the checkout id after it (a signed URL still verifies)", () => {
    expect(shopLink("https://shop.example/thanks?sig=a%20b~c&flag&checkout=cart-17", "co_1")).toBe(
      "https://shop.example/thanks?sig=a%20b~c&flag&checkout=cart-17&checkout=co_1",
    );
  });

  it("starts the query when there is none, and keeps a #fragment last", () => {
    expect(shopLink("https://shop.example/thanks", "co_1")).toBe("https://shop.example/thanks?checkout=co_1");
    expect(shopLink("https://shop.example/thanks#done", "co_1")).toBe("https://shop.example/thanks?checkout=co_1#done");
    expect(shopLink("https://shop.example/t?a=1#x?y", "co_1")).toBe("https://shop.example/t?a=1&checkout=co_1#x?y");
    expect(shopLink("https://shop.example/t?", "co_1")).toBe("https://shop.example/t?checkout=co_1");
  });

  it("is no link at all for a return URL that is not http(s)", () => {
    expect(shopLink("javascript:alert(1)", "co_1")).toBeNull();
    expect(shopLink("not a url", "co_1")).toBeNull();
    expect(httpUrl("ftp://x.example/")).toBeNull();
  });
});
