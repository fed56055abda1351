/**
 * A refusal the payer or merchant can act on. lib/http turns it into problem+json with this
 * status and code; `title` is written for a person, never a raw provider code.
 */
export class CheckoutError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: { path: string; message: string }[],
  ) {
    super(`${code}: ${title}`);
    this.name = "CheckoutError";
  }
}
