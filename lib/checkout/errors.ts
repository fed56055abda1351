import { ERRORS, type ErrorCode } from "../errors";
import { problemTitle } from "../http/problem";

export interface ErrorExtras {
  /** What exactly went wrong here, for the developer reading the answer (the title is the code's). */
  detail?: string;
  /** Bad fields, by path: forms show these next to the field. */
  errors?: { path: string; message: string }[];
}

/**
 * A refusal the payer or merchant can act on: one code of lib/errors.ts, which fixes the HTTP
 * status and the title; lib/http answers it as problem+json.
 */
export class CheckoutError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    readonly extras: ErrorExtras = {},
    /** What caused it (a provider's answer), for the log line only: never in the answer. */
    options?: { cause?: unknown },
  ) {
    const title = problemTitle(code);
    super(`${code}: ${title}${extras.detail ? ` (${extras.detail})` : ""}`, options);
    this.name = "CheckoutError";
    this.status = ERRORS[code].status;
    this.title = title;
  }

  get detail() {
    return this.extras.detail;
  }

  get errors() {
    return this.extras.errors;
  }
}

/** A bank chosen on our page obliges us to show and require the provider's Terms. */
export const termsRequired = () =>
  new CheckoutError("terms_required", {
    errors: [{ path: "termsAccepted", message: "must be accepted when you choose your bank here" }],
  });

export const unknownBank = () =>
  new CheckoutError("unknown_bank", { errors: [{ path: "bankId", message: "is not a bank we can pay with" }] });

export const checkoutNotFound = () => new CheckoutError("checkout_not_found");
