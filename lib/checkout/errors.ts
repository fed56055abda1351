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

/** A bank chosen on our page obliges us to show and require the provider's Terms. */
export const termsRequired = () =>
  new CheckoutError(422, "terms_required", "Please accept the Terms and Conditions.", undefined, [
    { path: "termsAccepted", message: "must be accepted when you choose your bank here" },
  ]);

export const unknownBank = () =>
  new CheckoutError(422, "unknown_bank", "Please choose one of the banks in the list.", undefined, [{ path: "bankId", message: "is not a bank we can pay with" }]);
