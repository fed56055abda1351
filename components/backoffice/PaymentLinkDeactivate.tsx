"use client";

import { useRouter } from "next/navigation";
import { deactivatePaymentLinkAction } from "@/app/backoffice/payment-links/actions";
import { ConfirmedAction } from "./ConfirmedAction";

/** Deactivate, in two steps as Cancel checkout; once done the page is refreshed to say what the link is now. */
export function PaymentLinkDeactivate({ linkId, deactivated }: { linkId: string; deactivated: boolean }) {
  const router = useRouter();
  return (
    <ConfirmedAction
      id="deactivate"
      available={!deactivated}
      startLabel="Deactivate link"
      question={
        <>
          <strong>Deactivate this payment link?</strong> Payers who open it are told it no longer takes payments.
          Payments already started from it can still finish. This cannot be undone.
        </>
      }
      yesLabel="Yes, deactivate link"
      outcomeName="Deactivate"
      unsent="The link could not be deactivated. Reload the page to see its status."
      send={() => {
        const data = new FormData();
        data.set("linkId", linkId);
        return deactivatePaymentLinkAction(null, data);
      }}
      answered={(answer) => {
        if (answer.ok) router.refresh();
      }}
    />
  );
}
