import { expect, test } from "@playwright/test";

test("an operator's Prometheus on this machine reads the instance's metrics; a request from elsewhere without the token is refused", async ({
  request,
}) => {
  await request.get("/api/health");
  const res = await request.get("/api/metrics");
  expect(res.status()).toBe(200);
  expect(res.headers()["cache-control"]).toBe("no-store");
  const text = await res.text();
  expect(text).toMatch(
    /^checkout_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} \d+$/m,
  );
  expect(text).toMatch(/^checkout_outbox_oldest_pending_age_seconds \d/m);

  // Passed on by a proxy from another machine: not this machine's scraper.
  const outside = await request.get("/api/metrics", { headers: { "X-Forwarded-For": "203.0.113.9" } });
  expect(outside.status()).toBe(401);
  expect(outside.headers()["cache-control"]).toBe("no-store");
  expect(await outside.json()).toMatchObject({ code: "unauthorized" });
});
