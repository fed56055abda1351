import { describe, expect, it } from "vitest";
import { problem } from "@/lib/http/problem";
import { undocumentedCode } from "./documented-codes";

describe("the check of answered codes against the document", () => {
  it("names a code the document does not list for the route, and passes one it does", async () => {
    expect(await undocumentedCode("GET", "/api/checkouts/{id}", problem("refund_refused"))).toBe(
      "GET /api/checkouts/{id}: refund_refused (422)",
    );
    expect(await undocumentedCode("GET", "/api/checkouts/{id}", problem("checkout_not_found"))).toBeUndefined();
  });

  it("holds a method the path does not take to method_not_allowed, and an unknown address to not_found", async () => {
    expect(await undocumentedCode("PUT", "/api/checkouts", problem("method_not_allowed"))).toBeUndefined();
    expect(await undocumentedCode("PUT", "/api/checkouts", problem("invalid_request"))).toMatch(/invalid_request/);
    expect(await undocumentedCode("GET", "/api/nothing", problem("not_found"))).toBeUndefined();
  });

  it("leaves success answers and the pages' own routes alone", async () => {
    expect(await undocumentedCode("GET", "/api/checkouts/{id}", new Response("{}"))).toBeUndefined();
    expect(await undocumentedCode("POST", "/checkout/{id}/pay", problem("refund_refused"))).toBeUndefined();
  });
});
