"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { resendNotificationAsStaff } from "@/app/backoffice/actions";
import { useMay } from "./staff-permissions";
import type { StaffDetail } from "@/lib/checkout/contract";
import type { ActionResult } from "./action-state";
import { ActionOutcome } from "./ActionOutcome";
import { DataTable } from "./DataTable";
import { None, Section, Time } from "./detail-parts";
import { staffKeys } from "./queries";
import styles from "./backoffice.module.css";

/**
 * The notifications sent to the merchant's notify URL. One the outbox gave up on can be sent
 * again (the merchant has fixed its endpoint): the outbox of any instance then delivers it within
 * seconds, and the page reads again until the merchant has it.
 */
export function DetailNotifications({ detail }: { detail: StaffDetail }) {
  const { notifications } = detail;
  const mayResend = useMay("notifications.resend");
  const checkoutId = detail.checkout.id;
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<ActionResult | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);

  const resend = useMutation({
    mutationFn: (notificationId: string) => {
      const data = new FormData();
      data.set("checkoutId", checkoutId);
      data.set("notificationId", notificationId);
      return resendNotificationAsStaff(null, data);
    },
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => {
      setOutcome(answer);
      void queryClient.invalidateQueries({ queryKey: staffKeys.checkout(checkoutId) });
    },
    onError: () => setOutcome({ ok: false, error: "Send again could not reach the server. Try again." }),
  });

  // The Send again just pressed goes with its row's "given up": focus goes to the outcome.
  const givenUp = notifications.filter((n) => n.givenUp).length;
  useEffect(() => {
    if (outcome && (!document.activeElement || document.activeElement === document.body)) messageRef.current?.focus();
  }, [outcome, givenUp]);

  return (
    <Section id="notifications" title="Notifications">
      <DataTable
        caption="Notifications sent to the merchant's notify URL"
        empty={detail.notifyUrl ? "No notifications yet." : "No notify URL was given, so no notifications are sent."}
        head={["Event", "Attempts", "Delivered", "Last error", "Action"]}
        numeric={[1]}
        rows={notifications.map((n) => ({
          key: n.id,
          cells: [
            <span key="e" className={styles.code}>
              {n.event}
            </span>,
            String(n.attempts),
            n.deliveredAt ? (
              <Time key="t" iso={n.deliveredAt} />
            ) : n.givenUp ? (
              <strong key="g">Given up</strong>
            ) : (
              "Not yet"
            ),
            !n.deliveredAt && (n.lastError || n.lastStatus) ? (
              [n.lastStatus ? `HTTP ${n.lastStatus}` : null, n.lastError].filter(Boolean).join(": ")
            ) : (
              <None key="n" />
            ),
            n.givenUp && mayResend ? (
              <div key="a" className={styles.resend}>
                <button
                  type="button"
                  className="btn btn-secondary"
                  aria-disabled={resend.isPending || undefined}
                  aria-describedby={n.laterDelivered ? `older-${n.id}` : undefined}
                  onClick={() => {
                    if (!resend.isPending) resend.mutate(n.id);
                  }}
                >
                  Send <span className="visually-hidden">{n.event}</span> again
                </button>
                {n.laterDelivered && (
                  // A merchant that applies notifications in the order they arrive would end at this
                  // older state; its lower sequence tells a careful one (README).
                  <p id={`older-${n.id}`} className={styles.olderWarning}>
                    The merchant already has the later <span className={styles.code}>{n.laterDelivered}</span>. Sent
                    again, this older notification arrives after it.
                  </p>
                )}
              </div>
            ) : (
              ""
            ),
          ],
        }))}
      />
      <ActionOutcome
        name="Send again"
        outcome={outcome}
        messageRef={messageRef}
        className={`${styles.slot} ${styles.notificationResult}`}
      />
    </Section>
  );
}
