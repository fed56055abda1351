import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { COMPILE_HINT, addCompileHints, buildIsStale } from "./build";

let dist: string;

function fakeBuild(manifest: unknown, chunks: Record<string, string>) {
  dist = mkdtempSync(path.join(tmpdir(), "build-test-"));
  mkdirSync(path.join(dist, "static/chunks"), { recursive: true });
  writeFileSync(path.join(dist, "build-manifest.json"), JSON.stringify(manifest));
  for (const [name, code] of Object.entries(chunks)) writeFileSync(path.join(dist, "static/chunks", name), code);
}
const chunk = (name: string) => readFileSync(path.join(dist, "static/chunks", name), "utf8");

afterEach(() => rmSync(dist, { recursive: true, force: true }));

describe("the compile hint on the framework's chunks", () => {
  it("marks the chunks every page runs at load, once, and leaves the page's own chunks as built", () => {
    fakeBuild(
      { rootMainFiles: ["static/chunks/react-dom.js", "static/chunks/runtime.js"] },
      { "react-dom.js": "(globalThis.TURBOPACK||[]).push([1])", "runtime.js": "!function(){}()", "page.js": "page()" },
    );

    expect(addCompileHints(dist)).toEqual(["static/chunks/react-dom.js", "static/chunks/runtime.js"]);
    addCompileHints(dist); // a second build step over the same output

    expect(chunk("react-dom.js")).toBe(`${COMPILE_HINT}(globalThis.TURBOPACK||[]).push([1])`);
    expect(chunk("runtime.js")).toBe(`${COMPILE_HINT}!function(){}()`);
    expect(chunk("page.js")).toBe("page()");
    // The exact words V8 looks for, on the first line (v8.dev/blog/explicit-compile-hints).
    expect(chunk("runtime.js").split("\n")[0]).toBe("//# allFunctionsCalledOnLoad");
  });

  it("fails the build, naming the manifest, when Next no longer lists those chunks", () => {
    fakeBuild({ pages: {} }, {});
    expect(() => addCompileHints(dist)).toThrow(/build-manifest\.json has no rootMainFiles/);
  });
});

describe("whether the build is stale (npm start and npm run deploy:rehearse build again when it is)", () => {
  it("is when there is no build, or a source or the build's settings changed after it; not for a dotfile", () => {
    dist = mkdtempSync(path.join(tmpdir(), "build-test-"));
    const write = (file: string, at: number) => {
      mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
      writeFileSync(path.join(dist, file), "");
      utimesSync(path.join(dist, file), at, at);
    };
    const day = 86_400;
    for (const dir of ["app", "components", "lib", "public"]) write(`${dir}/a/file.ts`, day);
    for (const file of ["package.json", "next.config.mjs", "tsconfig.json", "scripts/build.ts"]) write(file, day);
    expect(buildIsStale(dist)).toBe(true);

    write(".next/BUILD_ID", 2 * day);
    expect(buildIsStale(dist)).toBe(false);
    write("lib/.cache/x", 3 * day);
    expect(buildIsStale(dist)).toBe(false);
    write("lib/checkout/deep/changed.ts", 3 * day);
    expect(buildIsStale(dist)).toBe(true);

    write(".next/BUILD_ID", 4 * day);
    write("next.config.mjs", 5 * day);
    expect(buildIsStale(dist)).toBe(true);
  });
});
