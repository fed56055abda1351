import { expect, test } from "@playwright/test";
import { createCheckout } from "./journey";

/**
 * When a page's server render throws, Next answers 200 with an empty error shell and the browser
 * renders the page itself: it still works once the code has run, so no other test notices, but
 * the payer stares at a blank screen until then and the first paint waits for all the JavaScript.
 * Each page's HTML must already hold what the payer reads and acts on.
 */
test("every payer page arrives rendered: its content is in the HTML, before any script runs", async ({ request }) => {
  const id = await createCheckout(request);
  const pages: [string, RegExp][] = [
    [`/checkout/${id}`, /Search banks[\s\S]*name="bankId"[\s\S]*Terms and Conditions/],
    [`/checkout/${id}/return`, /<h1[^>]*>/],
    [`/checkout/${id}/embed`, /Search banks[\s\S]*name="bankId"/],
    ["/", /<h1[^>]*>/],
    ["/accessibility", /<h1[^>]*>/],
  ];
  for (const [path, content] of pages) {
    const res = await request.get(`${path}?lang=en`);
    expect(res.status(), path).toBe(200);
    const html = await res.text();
    expect(html, path).not.toContain('id="__next_error__"');
    expect(html.replace(/<script[\s\S]*?<\/script>/g, ""), path).toMatch(content);
  }
});
