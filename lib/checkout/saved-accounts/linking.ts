import { z } from "zod";
import { accountLinks } from "../../db/schema";
import { PisError } from "../../pis";
import { assertPayable, loadCheckout } from "../checkouts";
import { isProviderLink, type CheckoutContext } from "../context";
import { CheckoutError, termsRequired, unknownBank } from "../errors";
import { bankIdInput, newLinkId } from "../ids";
import { findBank, projectInfo } from "../project";
import { LOCALES } from "../types";
import { endLink } from "./links";
import { newPayerHandle, validHandle, hashHandle } from "./payer-handle";
import { linkReturnUrl } from "./link-return";

/** Saving the payer's account while paying: the provider's linking, and the payer's way back from it. */

export const startLinkingInput = z.object({
  bankId: bankIdInput,
  termsAccepted: z.boolean(),
  lang: z.enum(LOCALES).optional(),
});

export type StartLinkingInput = z.infer<typeof startLinkingInput>;

const savingUnavailable = (why: string) =>
  new CheckoutError("saving_unavailable", {
    detail: "Saving a bank account is not available here. You can still pay.",
    errors: [{ path: "bankId", message: why }],
  });

/** The scopes to ask for: payments, and the account's balance where the project may read it. */
function linkScopes(projectScopes: string[]): string[] {
  return ["payments", ...(projectScopes.includes("accounts_balances") ? ["accounts_balances"] : [])];
}

/**
 * Starts linking the payer's account at the chosen bank (POST /auth). Returns where to send the
 * payer, and the browser handle to keep (a new one when the browser had none).
 */
export async function startLinking(
  checkoutId: string,
  input: StartLinkingInput,
  payerHandle: string | undefined,
  c: CheckoutContext,
) {
  const checkout = await loadCheckout(c, checkoutId);
  assertPayable(c, checkout);
  if (!input.termsAccepted) throw termsRequired();
  if (!checkout.customerId) throw savingUnavailable("this checkout has no signed-in customer");
  const project = await projectInfo(c);
  if (!project.methods.bank || !project.scopes.includes("payments"))
    throw savingUnavailable("the shop's provider project cannot link accounts");
  const bank = await findBank(c, input.bankId).catch(() => undefined);
  if (bank === null) throw unknownBank();
  if (bank?.isAccountLinkingSupported === false) throw savingUnavailable("this bank does not allow saving an account");

  const handle = validHandle(payerHandle) ? payerHandle : newPayerHandle();
  const id = newLinkId();
  const scopes = linkScopes(project.scopes);
  await c.db.insert(accountLinks).values({
    id,
    customerId: checkout.customerId,
    handleHash: hashHandle(handle),
    checkoutId,
    bankId: input.bankId,
    scopes,
  });
  try {
    const started = await c.pis.auth.start({
      scopes,
      requestId: id,
      redirectUrl: linkReturnUrl(c, checkoutId, input.lang),
      bankId: input.bankId,
      lang: input.lang,
    });
    if (!isProviderLink(c, started.authorizationLink)) {
      await endLink(c, id, "failed", "untrusted_authorization_link");
      throw new CheckoutError("provider_error", { detail: "The payment service gave an unexpected answer." });
    }
    return { authorizationLink: started.authorizationLink, handle };
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    await endLink(c, id, "failed", `provider_${err.kind}`);
    throw new CheckoutError("provider_error", { detail: "The payment service could not start saving your account." });
  }
}
