import { describe, expect, it } from "vitest";
import { ApiError } from "@/components/query/fetch-json";
import { ERROR_CODES, ERRORS, type ErrorCode } from "@/lib/errors";
import { LOCALES, messages } from "@/lib/i18n";
import { explain as explainWith, linkToFollow } from "./pay-request";

const explain = (error: unknown) => explainWith(error, messages("en"));

const refusal = (code: ErrorCode, retry = ERRORS[code].retry) =>
  new ApiError("refused", ERRORS[code].status, code, {
    type: `about:blank#${code}`,
    title: "",
    status: ERRORS[code].status,
    code,
    retry,
  });

describe("linkToFollow", () => {
  it("follows a plain http(s) link", () => {
    expect(linkToFollow("https://bank.example/confirm?x=1")).toBe("https://bank.example/confirm?x=1");
  });

  it.each([["javascript:alert(1)"], ["data:text/html,hi"], ["not a url"], [undefined], [42]])(
    "refuses %s as bad_link",
    (link) => {
      expect(() => linkToFollow(link)).toThrow(expect.objectContaining({ code: "bad_link" }));
    },
  );
});

describe("explain", () => {
  it("a provider failure: try again with a new attempt", () => {
    expect(explain(refusal("provider_error"))).toEqual({
      key: "apiError.provider_error",
      retry: true,
      reload: false,
      newKey: true,
    });
  });

  it("a provider's refusal: no Try again, and paying another way starts a new attempt", () => {
    expect(explain(refusal("payment_refused"))).toEqual({
      key: "apiError.payment_refused",
      retry: false,
      reload: false,
      newKey: true,
    });
  });

  it("an order that ended meanwhile: reload, no retry", () => {
    expect(explain(refusal("already_paid"))).toMatchObject({
      key: "apiError.already_paid",
      retry: false,
      reload: true,
    });
  });

  it("a payment already in flight: reload to show it, not Try again, though the server would allow it later", () => {
    expect(explain(refusal("payment_in_progress"))).toMatchObject({
      key: "apiError.payment_in_progress",
      retry: false,
      reload: true,
      newKey: false,
    });
  });

  it("whether to offer Try again comes from the server's answer", () => {
    expect(explain(refusal("rate_limited"))).toMatchObject({
      key: "apiError.rate_limited",
      retry: true,
      reload: false,
    });
    expect(explain(refusal("method_unavailable"))).toMatchObject({
      key: "apiError.method_unavailable",
      retry: false,
      reload: false,
    });
  });

  it("a saved account that ended: reload with a new attempt key", () => {
    expect(explain(refusal("no_saved_account"))).toMatchObject({
      key: "apiError.no_saved_account",
      reload: true,
      newKey: true,
    });
  });

  it("no connection: a network message with retry", () => {
    expect(explain(new ApiError("network error", 0, null, null))).toMatchObject({
      key: "payError.network",
      retry: true,
    });
  });

  it("an unknown code, a code named like an object property, or a non-API error: the generic message", () => {
    const unknown = (code: string) =>
      new ApiError("refused", 409, code, { type: "", title: "", status: 409, code: code as ErrorCode, retry: false });
    for (const err of [
      unknown("something_new"),
      unknown("toString"),
      new ApiError("HTTP 500", 500, null, null),
      new Error("boom"),
    ]) {
      expect(explain(err)).toEqual({ key: "payError.generic", retry: true, reload: false, newKey: false });
    }
  });

  it("tells every code of the API in its own words, in each language: the browser has no other list of codes", () => {
    for (const locale of LOCALES)
      for (const code of ERROR_CODES) expect(explainWith(refusal(code), messages(locale)).key).toBe(`apiError.${code}`);
  });

  it("a code the page has no words for reads as the generic message", () => {
    expect(explainWith(refusal("rate_limited"), { "apiError.already_paid": "Paid" })).toMatchObject({
      key: "payError.generic",
      reload: false,
    });
  });
});
