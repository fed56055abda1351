/**
 * The one error every provider call throws. `kind` tells a caller what to do next:
 * - `http`: the provider answered with something other than 200; its verdict is in `httpStatus`,
 *   `code`, `providerName`, `description` and `data` (as far as the body carried them).
 * - `network` / `timeout`: no answer. For a POST we cannot know whether the provider acted.
 * - `parse`: a 200 we do not understand (not JSON, or not the shape we rely on): the provider
 *   acted, but we do not know what it made.
 * - `unsupported`: refused before sending, because the configured API version cannot express the
 *   request (a card payment in v0.1, a Webhook-URL on /auth before v0.3).
 */
export type PisErrorKind = "http" | "network" | "timeout" | "parse" | "unsupported";

export interface PisErrorDetails {
  kind: PisErrorKind;
  operation: string;
  httpStatus?: number;
  code?: number;
  name?: string;
  description?: string;
  data?: unknown;
  /** How many requests were sent; more than one when a GET was retried. */
  attempts?: number;
  cause?: unknown;
}

export class PisError extends Error {
  readonly kind: PisErrorKind;
  /** The provider's operation id (provider-api.md section 0), e.g. "initiatePayment". */
  readonly operation: string;
  readonly httpStatus?: number;
  /** `error.code` of the provider's envelope, e.g. 10015. */
  readonly code?: number;
  /** `error.name` of the provider's envelope, e.g. "InvalidRedirect". */
  readonly providerName?: string;
  readonly description?: string;
  /** The envelope's `data`: often a validation message such as `"amount" must be a number`. */
  readonly data?: unknown;
  readonly attempts: number;

  constructor(d: PisErrorDetails) {
    const what = d.kind === "http" ? `HTTP ${d.httpStatus}${d.name ? ` ${d.name}` : ""}` : d.kind;
    super(`${d.operation} failed: ${what}${d.description ? `: ${d.description}` : ""}`, { cause: d.cause });
    this.name = "PisError";
    this.kind = d.kind;
    this.operation = d.operation;
    this.httpStatus = d.httpStatus;
    this.code = d.code;
    this.providerName = d.name;
    this.description = d.description;
    this.data = d.data;
    this.attempts = d.attempts ?? (d.kind === "unsupported" ? 0 : 1);
  }

  /**
   * True when the answer is about the thing asked for: it does not exist (404) or no longer does
   * (410). Any other refusal (429, 408, 401, 403, 400...) is about the request or the caller and
   * says nothing of it (ADR 3).
   */
  get notFound(): boolean {
    return this.kind === "http" && (this.httpStatus === 404 || this.httpStatus === 410);
  }

  /**
   * True when the provider may have acted on the request even though we saw no verdict. A 200 we
   * could not read counts: the provider answers success with 200, so it acted, and taking it for a
   * refusal would invite a retry that pays or refunds twice.
   */
  get outcomeUnknown(): boolean {
    return this.kind === "network" || this.kind === "timeout" || this.kind === "parse" || (this.httpStatus ?? 0) >= 500;
  }
}
