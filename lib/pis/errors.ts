/**
 * The one error every provider call throws. `kind` tells a caller what to do next: an `http`
 * error carries the provider's verdict; `network` and `timeout` mean we do not know whether the
 * provider acted (a POST may or may not have created a payment); `parse` means the provider
 * answered something we do not understand.
 */
export type PisErrorKind = "http" | "network" | "timeout" | "parse";

export interface PisErrorDetails {
  kind: PisErrorKind;
  operation: string;
  httpStatus?: number;
  code?: number;
  name?: string;
  description?: string;
  data?: unknown;
  cause?: unknown;
}

export class PisError extends Error {
  readonly kind: PisErrorKind;
  readonly operation: string;
  readonly httpStatus?: number;
  readonly code?: number;
  readonly providerName?: string;
  readonly description?: string;
  readonly data?: unknown;

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
  }

  /** True when the provider may have acted on the request even though we saw no answer. */
  get outcomeUnknown(): boolean {
    return this.kind === "network" || this.kind === "timeout" || (this.httpStatus ?? 0) >= 500;
  }
}
