import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";

describe("OpenAPI document", () => {
  it("describes the checkout body from the schema that parses it, amount as a string", () => {
    const doc = openApiDocument("http://localhost:3000");
    const body = doc.paths["/api/checkouts"].post.requestBody.content["application/json"].schema as {
      properties: Record<string, { type?: string }>;
      required: string[];
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(body.properties.amount!.type).toBe("string");
    expect(body.required).toEqual(expect.arrayContaining(["amount", "currency", "description", "reference", "returnUrl"]));
    expect(body.required).not.toContain("notifyUrl");
  });
});
