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
