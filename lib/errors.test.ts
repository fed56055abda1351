import { describe, expect, it } from "vitest";
import { ERROR_CODES, ERRORS, errorMessageId } from "./errors";
import {
  openApiDocument,
  OTHER_METHOD_ERRORS,
  PAGE_ERRORS,
  PAY_PAGE_ERRORS,
  UNKNOWN_PATH_ERRORS,
} from "./http/openapi";
import { LOCALES } from "./checkout/types";
import { messages } from "./i18n";

const doc = openApiDocument("http://localhost:3000");
type Op = {
  "x-error-codes": string[];
  responses: Record<
    string,
    { content?: Record<string, { schema: { allOf?: [unknown, { properties: { code: { enum: string[] } } }] } }> }
  >;
};
const operations = Object.values(doc.paths).flatMap((path) => Object.values(path) as Op[]);

describe("the error table (lib/errors.ts)", () => {
  it.each(ERROR_CODES)("%s has a 4xx/5xx status, a retry flag and a message in every language", (code) => {
    const { status, retry } = ERRORS[code];
    expect(status >= 400 && status <= 599).toBe(true);
    expect(typeof retry).toBe("boolean");
    for (const locale of LOCALES) {
      expect(messages(locale)[errorMessageId(code)], `${locale} message of ${code}`).toMatch(/\S/);
    }
  });

  it.each(ERROR_CODES)("%s has a place in the OpenAPI document", (code) => {
    const inRoutes = operations.some((op) => op["x-error-codes"].includes(code));
    expect(
      inRoutes || [...PAGE_ERRORS, ...PAY_PAGE_ERRORS, ...OTHER_METHOD_ERRORS, ...UNKNOWN_PATH_ERRORS].includes(code),
    ).toBe(true);
  });

  it("no message is left over from a code that is gone", () => {
    for (const locale of LOCALES) {
      const ids = Object.keys(messages(locale)).filter((id) => id.startsWith("apiError."));
      expect(ids.sort()).toEqual(ERROR_CODES.map(errorMessageId).sort());
    }
  });

  it("each route's problem answers carry exactly the codes of their status", () => {
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const codes = response.content?.["application/problem+json"]?.schema.allOf?.[1].properties.code.enum;
        if (!codes) continue;
        for (const code of codes) expect(ERRORS[code as keyof typeof ERRORS].status).toBe(Number(status));
        expect(op["x-error-codes"]).toEqual(expect.arrayContaining(codes));
      }
    }
  });

  it("a 5xx is worth retrying, a malformed request is not", () => {
    for (const code of ERROR_CODES) {
      if (ERRORS[code].status >= 500) expect(ERRORS[code].retry, code).toBe(true);
      if (ERRORS[code].status === 400) expect(ERRORS[code].retry, code).toBe(false);
    }
  });
});
