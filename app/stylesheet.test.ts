import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET } from "./stylesheet.css/route";
import { minifyCss, stylesheet } from "./stylesheet";

describe("minifyCss", () => {
  it("drops comments and the space the syntax does not need", () => {
    expect(minifyCss("/* why */\n.a ,\n.b  {\n  color : red ;\n  margin: 0 auto; /* note */\n}\n")).toBe(
      ".a,.b{color :red;margin:0 auto}",
    );
  });

  it("keeps the space that means something: descendants, calc(), values", () => {
    expect(minifyCss(".list :focus-visible { width: calc(100% - 2 * 1rem); }")).toBe(
      ".list :focus-visible{width:calc(100% - 2 * 1rem)}",
    );
    expect(minifyCss("@media (min-width: 480px) { .page { padding: 0 1rem; } }")).toBe(
      "@media (min-width:480px){.page{padding:0 1rem}}",
    );
  });

  it("leaves strings as written, comment marks and quotes inside them included", () => {
    expect(minifyCss(`.q::before { content: "  /* not a comment */ ;}"; }\n.r::after { content: 'it\\'s  ' }`)).toBe(
      `.q::before{content:"  /* not a comment */ ;}"}.r::after{content:'it\\'s  '}`,
    );
  });
});

describe("the site's stylesheet", () => {
  const source = readFileSync(path.join(import.meta.dirname, "globals.css"), "utf8");

  it("keeps every rule of app/globals.css, without its comments", () => {
    const { css } = stylesheet();
    const rules = (s: string) => s.replace(/\/\*[\s\S]*?\*\//g, "").split("{").length;
    expect(rules(css)).toBe(rules(source));
    expect(css).not.toContain("/*");
    expect(css).toContain(":root{--font:");
    expect(css.length).toBeLessThan(source.length * 0.8);
  });

  it("is served as a file for global-error, cacheable and revalidated by its hash", async () => {
    const res = GET(new Request("http://localhost/stylesheet.css"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe(stylesheet().css);
    const etag = res.headers.get("etag")!;
    const again = GET(new Request("http://localhost/stylesheet.css", { headers: { "If-None-Match": etag } }));
    expect(again.status).toBe(304);
  });
});
