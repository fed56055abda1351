import { describe, expect, it } from "vitest";
import { errorMessageId } from "../errors";
import { LOCALES, messages } from "../i18n";
import { openApiDocument, payerErrorCodes } from "./openapi";

describe("OpenAPI document", () => {
  it("describes the checkout body from the schema that parses it, amount as a string", () => {
    const doc = openApiDocument("http://localhost:3000");
    const body = doc.paths["/api/checkouts"].post.requestBody!.content["application/json"].schema as {
      properties: Record<string, { type?: string }>;
      required: string[];
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(body.properties.amount!.type).toBe("string");
    expect(body.required).toEqual(
      expect.arrayContaining(["amount", "currency", "description", "reference", "returnUrl"]),
    );
    expect(body.required).not.toContain("notifyUrl");
  });
});

describe("OpenAPI document of the back office's JSON", () => {
  it("lists the list's filters from the schema that parses them, behind the staff session", () => {
    const doc = openApiDocument("http://localhost:3000");
    const list = doc.paths["/api/backoffice/checkouts"].get;
    expect(list.security).toEqual([{ staffSession: [] }]);
    expect((list.parameters as { name: string }[]).map((p) => p.name).sort()).toEqual([
      "bank",
      "from",
      "page",
      "q",
      "startingAfter",
      "status",
      "to",
      "updatedFrom",
      "updatedTo",
    ]);
  });
});

describe("OpenAPI document of the answers", () => {
  it("describes each answer from the zod schema that types it, and each refusal with its codes", () => {
    const doc = openApiDocument("http://localhost:3000");
    const start = doc.paths["/api/checkouts/{checkoutId}/payments"].post;
    const ok = (start.responses["200"] as unknown as { content: Record<string, { schema: { required: string[] } }> })
      .content["application/json"]!.schema;
    expect(ok.required.sort()).toEqual(["attemptId", "confirmLink"]);
    const conflict = start.responses["409"] as unknown as {
      content: Record<string, { schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] } }>;
    };
    expect(conflict.content["application/problem+json"]!.schema.allOf[1].properties.code.enum).toEqual(
      expect.arrayContaining(["already_paid", "payment_in_progress", "attempt_failed"]),
    );
    expect(start.responses["500"]).toBeDefined();
  });
});

describe("the refusals the payer's pages carry words for", () => {
  it("are every code the payer's routes can answer, in every language, and none of the merchant's or staff's", () => {
    const codes = payerErrorCodes();
    expect(codes).toEqual(
      expect.arrayContaining(["payment_in_progress", "payment_authorised", "terms_required", "rate_limited"]),
    );
    for (const locale of LOCALES) for (const code of codes) expect(messages(locale)[errorMessageId(code)]).toBeTruthy();
    for (const other of ["unauthorized", "refund_currency", "refund_exceeds_payment", "webhook_unsigned"] as const)
      expect(codes).not.toContain(other);
  });
});
