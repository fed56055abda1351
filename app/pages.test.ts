import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const appDir = path.resolve(import.meta.dirname);
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) =>
    statSync(path.join(dir, n)).isDirectory() ? files(path.join(dir, n)) : [path.join(dir, n)],
  );

describe("Next conventions", () => {
  it("every page has metadata (a title at least), static or generated", () => {
    const pages = files(appDir).filter((f) => f.endsWith("page.tsx"));
    expect(pages.length).toBeGreaterThan(5);
    const without = pages.filter(
      (f) => !/export (const metadata|async function generateMetadata)/.test(readFileSync(f, "utf8")),
    );
    expect(without.map((f) => path.relative(appDir, f))).toEqual([]);
  });

  it("has error pages for a page that fails and for the root layout", () => {
    for (const name of ["error.tsx", "global-error.tsx", "not-found.tsx"])
      expect(readFileSync(path.join(appDir, name), "utf8")).toMatch(/export default (async )?function/);
  });
});
