import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { paymentId, statusGroup } from "./schemas";
import { normaliseStatus, type NormalisedStatus } from "./status";

/** Webhooks older than this are refused (provider-api.md section 7: 5 minutes). */
export const WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

const paymentEvent = z.object({
  type: z.literal("PAYMENT"),
  id: paymentId,
  statusGroup,
  bankStatus: z.string().optional(),
  cardStatus: z.string().optional(),
  hybridStatus: z.string().optional(),
  status: z.string().optional(),
});

const refundEvent = z.object({
  type: z.literal("PAYMENT_REFUND"),
  // The refund id is an integer in the API but arrives as a string in the webhook; a 32-bit one
  // (the JVM client's Int), so a larger one is no refund of ours.
  id: z
    .union([z.string().regex(/^\d{1,10}$/), z.number().int()])
    .transform((v) => Number(v))
    .pipe(
      z
        .number()
        .min(0)
        .max(2 ** 31 - 1),
    ),
  paymentId,
  statusGroup,
});

const event = z.discriminatedUnion("type", [paymentEvent, refundEvent]);

export type WebhookEvent =
  | { type: "PAYMENT"; paymentId: string; status: NormalisedStatus }
  | { type: "PAYMENT_REFUND"; refundId: number; paymentId: string; statusGroup: z.infer<typeof statusGroup> };

export type WebhookRejection = "missing_headers" | "bad_signature" | "stale" | "malformed";

export type WebhookVerdict =
  { ok: true; event: WebhookEvent } | { ok: false; reason: WebhookRejection; detail: string };

/** The signature the provider sends: lowercase hex HMAC-SHA256 of "POST" + url + timestamp + body. */
export function webhookSignature(secret: string, url: string, timestamp: string, rawBody: string): string {
  return createHmac("sha256", secret).update(`POST${url}${timestamp}${rawBody}`).digest("hex");
}

/** Fetch `Headers`, or a plain object such as node:http's `req.headers` (any case, maybe arrays). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

export interface VerifyWebhookInput {
  /** The body exactly as received: re-serialised JSON would not match the signature. */
  rawBody: string;
  headers: WebhookHeaders;
  /** The exact Webhook-URL string given to the provider, query string included. */
  url: string;
  /** The webhook endpoint secret (not the Client-Secret). */
  secret: string;
  /** Epoch milliseconds; default Date.now(). */
  now?: number;
  toleranceMs?: number;
}

/**
 * Checks a webhook as received. `url` must be the exact Webhook-URL string we gave the provider,
 * not one rebuilt from the incoming request (a proxy in front of us would change it).
 */
export function verifyWebhook(input: VerifyWebhookInput): WebhookVerdict {
  const timestamp = header(input.headers, "x-kevin-timestamp");
  const signature = header(input.headers, "x-kevin-signature");
  if (!timestamp || !signature) {
    return { ok: false, reason: "missing_headers", detail: "X-Kevin-Timestamp and X-Kevin-Signature are required" };
  }
  const expected = Buffer.from(webhookSignature(input.secret, input.url, timestamp, input.rawBody), "utf8");
  const given = Buffer.from(signature.trim().toLowerCase(), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: "bad_signature", detail: "signature does not match" };
  }
  // Checked after the signature so an attacker cannot probe our clock with unsigned requests.
  const sentAt = Number(timestamp);
  const now = input.now ?? Date.now();
  if (!/^\d+$/.test(timestamp) || Math.abs(now - sentAt) > (input.toleranceMs ?? WEBHOOK_TOLERANCE_MS)) {
    return { ok: false, reason: "stale", detail: "timestamp outside the accepted window" };
  }
  let json: unknown;
  try {
    json = JSON.parse(input.rawBody);
  } catch {
    return { ok: false, reason: "malformed", detail: "body is not JSON" };
  }
  const parsed = event.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      reason: "malformed",
      detail: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    };
  }
  const e = parsed.data;
  if (e.type === "PAYMENT") {
    return {
      ok: true,
      event: { type: "PAYMENT", paymentId: e.id, status: normaliseStatus({ ...e, group: e.statusGroup }) },
    };
  }
  return {
    ok: true,
    event: { type: "PAYMENT_REFUND", refundId: e.id, paymentId: e.paymentId, statusGroup: e.statusGroup },
  };
}
