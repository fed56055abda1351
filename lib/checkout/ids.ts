import { randomBytes, randomUUID } from "node:crypto";

/** Checkout ids are the payer's only credential for the page: 144 random bits, URL-safe. */
export function newCheckoutId(): string {
  return `co_${randomBytes(18).toString("base64url")}`;
}

export function newAttemptId(): string {
  return `pa_${randomUUID()}`;
}
