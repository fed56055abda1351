import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { markDatabaseAway, markDatabaseBack } from "@/lib/db/away";
import { AWAY_HEADER, AWAY_PAGE } from "@/lib/http/away-page";
import { proxy } from "./proxy";

afterEach(markDatabaseBack);

const ask = (path: string, headers: Record<string, string> = {}) =>
  proxy(new NextRequest(`http://localhost:3000${path}`, { headers }));
const document = { accept: "text/html,application/xhtml+xml" };
/** Where Next is told to render the request instead (NextResponse.rewrite), if anywhere. */
const rewrittenTo = (res: Response) => {
  const to = res.headers.get("x-middleware-rewrite");
  return to && new URL(to).pathname;
};

describe("a page while this instance's database is away", () => {
  it("answers 503 with Retry-After at once, with the page that says it is back in a moment", async () => {
    markDatabaseAway();
    const res = await ask("/checkout/chk_123/return?lang=lt", document); // the landing, kept for Back elsewhere
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(rewrittenTo(res)).toBe(AWAY_PAGE);
    expect(new URL(res.headers.get("x-middleware-rewrite")!).searchParams.get("lang")).toBe("lt");
    // still a page of ours (its policy and nonce), told the address its Try again asks for
    expect(res.headers.get("content-security-policy")).toContain("nonce-");
    expect(res.headers.get(`x-middleware-request-${AWAY_HEADER}`)).toBe("/checkout/chk_123/return?lang=lt");
  });

  it("sends the page to the away page on the address Next's router has, a loopback one too", async () => {
    // What next.config.mjs's skipProxyUrlNormalize makes the build do: the proxy is handed the
    // router's own address, not one with "localhost" put for 127.0.0.1 (vercel/next.js#94745).
    process.env.__NEXT_NO_MIDDLEWARE_URL_NORMALIZE = "1";
    try {
      markDatabaseAway();
      const res = await proxy(new NextRequest("http://127.0.0.1:3610/checkout/chk_123?lang=lv", { headers: document }));
      expect(res.status).toBe(503);
      expect(res.headers.get("x-middleware-rewrite")).toBe("http://127.0.0.1:3610/unavailable?lang=lv");
    } finally {
      delete process.env.__NEXT_NO_MIDDLEWARE_URL_NORMALIZE;
    }
  });

  it("leaves alone what is not a page's document: a file, a navigation's RSC payload", async () => {
    markDatabaseAway();
    for (const res of [
      await ask("/logos/banks/swedbank.svg", { accept: "image/avif,image/webp,*/*" }),
      await ask("/checkout/chk_123", { ...document, rsc: "1" }),
    ]) {
      expect(res.status).toBe(200);
      expect(rewrittenTo(res)).toBeNull();
    }
  });

  it("renders the page as usual when the database answers, and a browser cannot say it is away", async () => {
    const res = await ask("/checkout/chk_123", { ...document, [AWAY_HEADER]: "1" });
    expect(res.status).toBe(200);
    expect(rewrittenTo(res)).toBeNull();
    expect(res.headers.get(`x-middleware-request-${AWAY_HEADER}`)).toBeNull();
  });
});
