"use client";

import { useQueryClient } from "@tanstack/react-query";
import { cancelCheckoutAsStaff } from "@/app/backoffice/actions";
import type { CheckoutStatus } from "@/lib/checkout/types";
import { ConfirmedAction } from "./ConfirmedAction";
import { staffKeys } from "./queries";

/**
 * Where a cancel can work: no final status yet. `processing` too: a payment the payer has not
 * authorised is stopped first, and one they have is refused by the server with a reason.
 */
export const CANCELLABLE: readonly CheckoutStatus[] = ["open", "processing", "failed"];

/**
 * Cancel checkout, in two steps (ConfirmedAction). Refused or not, the status may have moved (a
 * payment stopped, or found authorised): the checkout and the list are read again.
 */
export function CancelCheckout({ checkoutId, status }: { checkoutId: string; status: CheckoutStatus }) {
  const queryClient = useQueryClient();
  return (
    <ConfirmedAction
      id="cancel"
      available={CANCELLABLE.includes(status)}
      startLabel="Cancel checkout"
      question={
        <>
          <strong>Cancel this checkout?</strong> The payer can no longer pay it, and a payment they have not authorised
          at the bank is stopped. This cannot be undone.
        </>
      }
      yesLabel="Yes, cancel checkout"
      outcomeName="Cancel"
      unsent="The cancel could not be sent. Reload the page to see the checkout's status."
      send={() => {
        const data = new FormData();
        data.set("checkoutId", checkoutId);
        return cancelCheckoutAsStaff(null, data);
      }}
      answered={() => {
        void queryClient.invalidateQueries({ queryKey: staffKeys.checkout(checkoutId) });
        void queryClient.invalidateQueries({ queryKey: staffKeys.checkouts() });
      }}
    />
  );
}
