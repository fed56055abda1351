import { isRecord } from "./errors.ts";
import type { CheckoutStatus, MerchantNotification, NotificationEvent } from "./types.ts";

/**
 * The app signs each notification it POSTs to a checkout's notifyUrl:
 *   Checkout-Signature: t=<unix ms>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>[,v1=...]
 * one `v1=` per signing secret in force, so a merchant rolling its secret accepts either. `t` is in
 * milliseconds (Stripe's is in seconds).
 */

/** How old `t` may be: a captured notification replayed later is refused. */
export const NOTIFICATION_MAX_AGE_MS = 5 * 60_000;
/**
 * How far ahead of this machine's clock `t` may be: two servers' clocks never agree exactly. The
 * same window as the age, as the app's README documents (and applies to its provider's webhooks).
 */
export const NOTIFICATION_MAX_FUTURE_MS = 5 * 60_000;

export type NotificationRefusal =
  "missing_signature" | "malformed_signature" | "bad_signature" | "stale" | "future" | "malformed_body";

/** Why a notification was refused: answer it 400 (or 401), and do nothing it says. */
export class NotificationVerificationError extends Error {
  override readonly name = "NotificationVerificationError";
  constructor(
    readonly reason: NotificationRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** Headers as fetch (`Headers`), Node (`req.headers`) or a plain object give them. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Now, in unix ms. Default: Date.now(). */
  now?: number;
}

// Records, not lists: an event or status the schema gains is a type error here until it is added.
const EVENTS: Record<NotificationEvent, true> = {
  "checkout.paid": true,
  "checkout.payment_failed": true,
  "checkout.expired": true,
  "checkout.duplicate_payment": true,
  "refund.completed": true,
  "refund.failed": true,
};
const STATUSES: Record<CheckoutStatus, true> = {
  open: true,
  processing: true,
  paid: true,
  failed: true,
  expired: true,
  cancelled: true,
};

/**
 * Checks a notification's Checkout-Signature against any of `secrets` (several while one is being
 * rolled) and its age, then parses it. Give it the body exactly as received, before any JSON
 * parsing: the signature is over those bytes.
 */
export async function verifyNotification(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: HeadersLike,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): Promise<MerchantNotification> {
  const keys = (typeof secrets === "string" ? [secrets] : [...secrets]).filter((s) => s !== "");
  if (keys.length === 0) throw new TypeError("verifyNotification needs at least one signing secret");
  const header = headerValue(headers, "checkout-signature");
  if (header === undefined)
    throw new NotificationVerificationError("missing_signature", "No Checkout-Signature header");
  const { timestamp, signatures } = parseSignature(header);

  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : new Uint8Array(rawBody);
  const signed = concat(encoder.encode(`${timestamp}.`), body);
  let matched = false;
  for (const secret of keys) {
    const expected = await hmacSha256(secret, signed);
    for (const candidate of signatures) if (constantTimeEqual(expected, candidate)) matched = true;
  }
  if (!matched) throw new NotificationVerificationError("bad_signature", "No signature matches a secret given");

  const now = options.now ?? Date.now();
  const t = Number(timestamp);
  if (now - t > NOTIFICATION_MAX_AGE_MS)
    throw new NotificationVerificationError("stale", `Signed ${now - t} ms ago: older than 5 minutes`);
  if (t - now > NOTIFICATION_MAX_FUTURE_MS)
    throw new NotificationVerificationError("future", `Signed ${t - now} ms ahead of this clock: more than 5 minutes`);

  return parseNotification(body);
}

const encoder = new TextEncoder();

function headerValue(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value.join(",") : value;
  }
  return undefined;
}

function parseSignature(header: string): { timestamp: string; signatures: Uint8Array[] } {
  let timestamp: string | undefined;
  const signatures: Uint8Array[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && value && /^\d{1,16}$/.test(value)) timestamp = value;
    // Another scheme (v0, v2) is not ours to judge; a malformed v1 cannot match anyway.
    if (key === "v1" && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(fromHex(value));
  }
  if (timestamp === undefined || signatures.length === 0)
    throw new NotificationVerificationError("malformed_signature", "Checkout-Signature lacks t= or v1=");
  return { timestamp, signatures };
}

async function hmacSha256(secret: string, data: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, data as Uint8Array<ArrayBuffer>));
}

/** Equal bytes, in a time that does not depend on where they differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The signed body, checked field by field: a valid signature proves who sent it, not its shape. */
function parseNotification(body: Uint8Array): MerchantNotification {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new NotificationVerificationError("malformed_body", "The body is not JSON");
  }
  const bad = (what: string) => new NotificationVerificationError("malformed_body", `The body's ${what} is not valid`);
  if (!isRecord(parsed)) throw bad("top level");
  const { id, event, createdAt, sequence, checkout, status, attemptId, refund } = parsed;
  if (typeof id !== "string") throw bad("id");
  if (typeof event !== "string" || !Object.hasOwn(EVENTS, event)) throw bad("event");
  if (typeof createdAt !== "string") throw bad("createdAt");
  if (typeof sequence !== "number" || !Number.isInteger(sequence)) throw bad("sequence");
  if (
    !isRecord(checkout) ||
    !["id", "reference", "amount", "currency"].every((k) => typeof checkout[k] === "string") ||
    !isStringRecord(checkout.metadata)
  )
    throw bad("checkout");
  if (status !== undefined && !(typeof status === "string" && Object.hasOwn(STATUSES, status))) throw bad("status");
  if (attemptId !== undefined && typeof attemptId !== "string") throw bad("attemptId");
  if (
    refund !== undefined &&
    !(isRecord(refund) && ["id", "amount", "currency"].every((k) => typeof refund[k] === "string"))
  )
    throw bad("refund");
  return parsed as MerchantNotification;
}

const isStringRecord = (v: unknown): v is Record<string, string> =>
  isRecord(v) && Object.values(v).every((x) => typeof x === "string");
