import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { buildLoader } from "./build-loader";
import { EMBED_JS, EMBED_JS_HASH } from "./loader-bundle";

describe("embed.js", () => {
  it("is served as built from loader.ts (run `npm run embed:build` after changing it)", () => {
    const built = buildLoader();
    expect(EMBED_JS).toBe(built.code);
    expect(EMBED_JS_HASH).toBe(built.hash);
  });

  it("stays within 4 KiB gzipped", () => {
    expect(gzipSync(EMBED_JS).length).toBeLessThanOrEqual(4096);
  });
});
