"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { decideRefundRequest } from "@/app/backoffice/actions";
import type { StaffDetail } from "@/lib/checkout/contract";
import type { ActionResult } from "./action-state";
import { ActionOutcome } from "./ActionOutcome";
import { DataTable } from "./DataTable";
import { None, Time } from "./detail-parts";
import { staffKeys } from "./queries";
import { useMay, useSelfId } from "./staff-permissions";
import styles from "./backoffice.module.css";

const STATE: Record<StaffDetail["refundRequests"][number]["state"], string> = {
  requested: "Waiting for approval",
  approved: "Approved",
  rejected: "Rejected",
  lapsed: "Lapsed (not approved in 7 days)",
};

/**
 * Large refunds asked for by staff (four eyes): who asked, and, for the other finance and admin
 * people, Approve and Reject. Nobody sees those buttons on their own request.
 */
export function RefundRequests({ detail, money }: { detail: StaffDetail; money: (amount: string) => string }) {
  const mayDecide = useMay("refunds.create");
  const selfId = useSelfId();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<ActionResult | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const decide = useMutation({
    mutationFn: ({ requestId, decision }: { requestId: string; decision: "approve" | "reject" }) => {
      const data = new FormData();
      data.set("checkoutId", detail.checkout.id);
      data.set("requestId", requestId);
      data.set("decision", decision);
      return decideRefundRequest(null, data);
    },
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => {
      setOutcome(answer);
      void queryClient.invalidateQueries({ queryKey: staffKeys.checkout(detail.checkout.id) });
    },
    onError: () => setOutcome({ ok: false, error: "The decision could not be sent. Reload the page." }),
  });
  if (detail.refundRequests.length === 0) return null;
  return (
    <>
      <DataTable
        caption="Refunds asked for, waiting for or given a second person's approval"
        empty=""
        head={["Asked", "By", "Amount", "Reason", "State", "Decided by", "Action"]}
        numeric={[2]}
        rows={detail.refundRequests.map((r) => ({
          key: r.id,
          cells: [
            <Time key="t" iso={r.requestedAt} />,
            r.requestedByEmail,
            money(r.amount),
            r.reason ?? <None key="r" />,
            STATE[r.state],
            r.decidedByEmail ?? <None key="d" />,
            r.state === "requested" && mayDecide && r.requestedBy !== selfId ? (
              <div key="a" className={styles.inlineForm}>
                <button
                  type="button"
                  className="btn btn-primary"
                  aria-disabled={decide.isPending || undefined}
                  onClick={() => !decide.isPending && decide.mutate({ requestId: r.id, decision: "approve" })}
                >
                  Approve<span className="visually-hidden"> refund of {money(r.amount)}</span>
                </button>
                <button
                  type="button"
                  className="btn btn-secondary"
                  aria-disabled={decide.isPending || undefined}
                  onClick={() => !decide.isPending && decide.mutate({ requestId: r.id, decision: "reject" })}
                >
                  Reject<span className="visually-hidden"> refund of {money(r.amount)}</span>
                </button>
              </div>
            ) : (
              <None key="n" />
            ),
          ],
        }))}
      />
      <ActionOutcome name="Refund approval" outcome={outcome} messageRef={messageRef} className={styles.slot} />
    </>
  );
}
