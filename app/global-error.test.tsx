import { prerenderToNodeStream } from "react-dom/static";
import { describe, expect, it } from "vitest";
import { ERROR_TEXT } from "@/lib/i18n/error-text";
import GlobalError from "./global-error";

// The page Next shows when the root layout itself fails. No route can make the layout fail on
// purpose, so the test renders the page as the server would, waiting for its lazy view.
describe("the page that replaces a failed root layout", () => {
  it("is a whole document: its own html and body, the stylesheet as a file, and the error in words with Try again", async () => {
    const { prelude } = await prerenderToNodeStream(<GlobalError />);
    let html = "";
    for await (const chunk of prelude) html += chunk;

    expect(html).toMatch(/^<!DOCTYPE html><html lang="en"><head>/);
    expect(html).toMatch(/<head>.*<link rel="stylesheet" href="\/stylesheet.css"/);
    const en = ERROR_TEXT.en;
    expect(html).toContain(`role="alert"><h1 tabindex="-1">${en.title}</h1>`);
    expect(html).toContain(en.body.replace(/'/g, "&#x27;"));
    expect(html).toContain(`>${en.retry}</button>`);
    expect(html).toContain(`>${en.back}</button>`);
  });
});
