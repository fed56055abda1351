import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { errorCodesBlockOf, errorCodesMarkdown, withErrorCodes } from "./error-codes-doc";
import { openApiDocument } from "./openapi";

const doc = openApiDocument("http://localhost:3000");

describe("README's error codes", () => {
  it("are the OpenAPI document's, route by route (npm run docs:error-codes writes them)", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    expect(errorCodesBlockOf(readme), "README.md is stale: npm run docs:error-codes").toBe(errorCodesMarkdown(doc));
  });

  it("list every operation of the document with each code it can answer, and what each code means", () => {
    const block = errorCodesMarkdown(doc);
    const start = doc.paths["/api/checkouts/{checkoutId}/payments"].post["x-error-codes"];
    const row = block.split("\n").find((l) => l.startsWith("| `POST /api/checkouts/{checkoutId}/payments` |"))!;
    for (const code of start) expect(row).toContain(`\`${code}\` `);
    for (const [path, ops] of Object.entries(doc.paths))
      for (const method of Object.keys(ops)) expect(block).toContain(`| \`${method.toUpperCase()} ${path}\` |`);
    expect(block).toContain("| `refund_exceeds_payment` | 422 | no |");
  });

  it("replace only what is between the markers", () => {
    const readme = "before\n" + errorCodesMarkdown(doc) + "\nafter";
    expect(withErrorCodes(readme, "X")).toBe("before\nX\nafter");
    expect(() => withErrorCodes("no markers", "X")).toThrow(/README/);
  });
});
