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

describe("OpenAPI document of the back office's JSON", () => {
  it("lists the list's filters from the schema that parses them, behind the staff session", () => {
    const doc = openApiDocument("http://localhost:3000");
    const list = doc.paths["/api/backoffice/checkouts"].get;
    expect(list.security).toEqual([{ staffSession: [] }]);
    expect(list.parameters.map((p) => p.name).sort()).toEqual(["bank", "from", "page", "q", "status", "to"]);
  });
});
