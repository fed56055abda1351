/** Writes README's "Error codes" tables from the OpenAPI document; lib/http/error-codes-doc.test.ts fails when they are stale. */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { errorCodesMarkdown, withErrorCodes } from "../lib/http/error-codes-doc";
import { openApiDocument } from "../lib/http/openapi";

const file = path.resolve(import.meta.dirname, "..", "README.md");
writeFileSync(file, withErrorCodes(readFileSync(file, "utf8"), errorCodesMarkdown(openApiDocument(""))));
console.log(`wrote the error codes of ${path.relative(process.cwd(), file)}`);
