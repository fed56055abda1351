import { createHash } from "node:crypto";
import { CheckoutError } from "./errors";

/** An Idempotency-Key as merchants may send it: 1-255 printable ASCII characters, else a 400 naming the header. */
export function validateIdempotencyKey(key: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new CheckoutError("invalid_request", {
      detail: "The Idempotency-Key header is not valid.",
      errors: [{ path: "Idempotency-Key", message: "must be 1-255 printable ASCII characters" }],
    });
  }
  return key;
}

/** A request's Idempotency-Key, and what to do when it answers a request made before (a replay). */
export interface IdempotencyOptions {
  idempotencyKey?: string;
  /** Called when the answer is the earlier request's: the route says so (Idempotent-Replayed). */
  onReplay?: () => void;
}

/**
 * The hash an Idempotency-Key is stored with, over a canonical form of the request (object keys
 * sorted, at every depth): a retry that lists its metadata's keys in another order is the same
 * request.
 */
export function requestHashOf(request: unknown): string {
  return createHash("sha256").update(JSON.stringify(request, sortedKeys)).digest("hex");
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k]]),
  );
}
