import { describe, expect, it } from "vitest";
import { CheckoutError } from "@/lib/checkout/errors";
import { listHref, parseFilter } from "./filters";
import { describeRefundError } from "./refund-errors";

describe("back-office list filters", () => {
  it("reads the filters from the query string and leaves out empty ones", () => {
    const { filter, problems } = parseFilter({ status: "paid", from: "", q: " order-1 ", bank: "SWEDBANK_LT" });
    expect(filter).toEqual({ status: "paid", q: "order-1", bank: "SWEDBANK_LT", page: 1 });
    expect(problems).toEqual([]);
  });

  it("ignores a hand-edited value that does not parse, keeps the rest and says which", () => {
    const { filter, problems } = parseFilter({ status: "refunded", from: "2025-13-40", q: "abc", page: "2" });
    expect(filter).toEqual({ q: "abc", page: 2 });
    expect(problems).toHaveLength(2);
    expect(problems.join(" ")).toMatch(/Status "refunded"/);
    expect(problems.join(" ")).toMatch(/From "2025-13-40"/);
  });

  it("ignores a search with a NUL character and dates no checkout can have, naming each, instead of failing the page", () => {
    const { filter, problems } = parseFilter({
      q: "order\u00001",
      from: "0000-01-01",
      to: "9999-12-31",
      status: "paid",
    });
    expect(filter).toEqual({ status: "paid", page: 1 });
    expect(problems).toHaveLength(3);
    expect(problems.join(" ")).toMatch(/Search "order\uFFFD1"/);
    expect(problems.join(" ")).toMatch(/From "0000-01-01"/);
    expect(problems.join(" ")).toMatch(/To "9999-12-31"/);
  });

  it("reads a page address that carries more than the filters, and the first of a repeated one", () => {
    const { filter, problems } = parseFilter({ status: ["paid", "failed"], tab: "refunds", page: "2" });
    expect(filter).toEqual({ status: "paid", page: 2 });
    expect(problems).toEqual([]);
  });

  it("swaps From and To when they are the wrong way round", () => {
    const { filter, problems } = parseFilter({ from: "2025-03-10", to: "2025-03-01" });
    expect(filter).toMatchObject({ from: "2025-03-01", to: "2025-03-10" });
    expect(problems).toHaveLength(1);
  });

  it("builds page links that keep the filters", () => {
    const { filter } = parseFilter({ status: "failed", q: "a b" });
    expect(listHref(filter, 2)).toBe("/backoffice?status=failed&q=a+b&page=2");
    expect(listHref(filter, 1)).toBe("/backoffice?status=failed&q=a+b");
    expect(listHref(parseFilter({}).filter)).toBe("/backoffice");
  });
});

describe("refund refusals shown to staff", () => {
  it("names what is left when the amount is too large", () => {
    const err = new CheckoutError("refund_exceeds_payment", {
      detail: "At most 9.90 EUR can still be refunded.",
      errors: [{ path: "amount", message: "must be at most 9.90" }],
    });
    expect(describeRefundError(err)).toEqual({
      error: "The refund is more than what can still be refunded. At most 9.90 EUR can still be refunded.",
      field: "amount",
    });
  });

  it("names the field of a malformed amount", () => {
    const err = new CheckoutError("invalid_request", {
      detail: "The refund is not valid.",
      errors: [{ path: "amount", message: "EUR allows at most 2 decimal places" }],
    });
    expect(describeRefundError(err)).toEqual({ error: "Amount EUR allows at most 2 decimal places.", field: "amount" });
  });

  it("passes on a refusal that is not about a field", () => {
    const err = new CheckoutError("refund_too_late", { detail: "Payments can only be refunded within 365 days." });
    expect(describeRefundError(err)).toEqual({
      error: "This payment is too old to be refunded. Payments can only be refunded within 365 days.",
      field: undefined,
    });
  });
});
