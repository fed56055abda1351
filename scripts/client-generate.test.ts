import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateClientSchema, SCHEMA_FILE } from "./client-generate";

describe("the typed client's generated schema", () => {
  it("is what the OpenAPI document makes today", async () => {
    const committed = readFileSync(SCHEMA_FILE, "utf8");
    const fresh = await generateClientSchema();
    // A plain message, not a 3000-line diff: the fix is one command.
    if (fresh !== committed)
      expect.fail(
        "clients/typescript/src/schema.ts is out of date with lib/http/openapi.ts: run npm run client:generate",
      );
  });
});
