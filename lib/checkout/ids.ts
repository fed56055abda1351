import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";

/** Checkout ids are the payer's only credential for the page: 144 random bits, URL-safe. */
export function newCheckoutId(): string {
  return `co_${randomBytes(18).toString("base64url")}`;
}

/** Whether `id` could be a checkout id at all: anything else is not looked up. */
export const isCheckoutId = (id: string) => /^co_[A-Za-z0-9_-]{20,40}$/.test(id);

export function newAttemptId(): string {
  return `pa_${randomUUID()}`;
}

export const ATTEMPT_ID = /^pa_[0-9a-f-]{36}$/;

/** Whether `id` could be a payment attempt id at all: anything else is not looked up. */
export const isAttemptId = (id: string) => ATTEMPT_ID.test(id);

/** A saved account's id, also the provider's Request-Id of its linking. */
export function newLinkId(): string {
  return `al_${randomBytes(18).toString("base64url")}`;
}

/** A provider bank id as the payer's browser may send it. */
export const bankIdInput = z.string().regex(/^[A-Za-z0-9_]{2,64}$/, "is not a bank id");
