/**
 * Every action the audit trail records, with the words the back office shows for it: one table,
 * so the Activity page's filter and a checkout's staff actions name them alike.
 */
export const AUDIT_ACTIONS = {
  "staff.sign_in": "Signed in",
  "staff.sign_out": "Signed out",
  "staff.sign_out_everywhere": "Signed out everywhere",
  "staff.reauthenticated": "Confirmed it was them",
  "staff.invited": "Invited a person",
  "staff.password_reset": "Made a new password link",
  "staff.password_set": "Set a password",
  "staff.role_changed": "Changed a role",
  "staff.disabled": "Disabled a person",
  "staff.enabled": "Enabled a person",
  "staff.second_factor_enrolled": "Turned on two-step sign-in",
  "staff.second_factor_reset": "Reset a person's two-step sign-in",
  "staff.passkey_added": "Added a passkey",
  "staff.passkey_removed": "Removed a passkey",
  "api_key.created": "Made an API key",
  "api_key.rolled": "Rolled an API key",
  "api_key.revoked": "Revoked an API key",
  "notify_secret.created": "Made a notification signing secret",
  "notify_secret.rolled": "Rolled a notification signing secret",
  "refund.created": "Refunded",
  "refund.requested": "Asked for a refund (four eyes)",
  "refund.approved": "Approved a refund",
  "refund.rejected": "Rejected a refund",
  "checkout.cancelled": "Cancelled the checkout",
  "notification.resent": "Sent a notification again",
  "payment_link.created": "Made a payment link",
  "payment_link.deactivated": "Deactivated a payment link",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const auditActionLabel = (action: string) => (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;

export const AUDIT_OUTCOMES = { succeeded: "Done", failed: "Failed", refused: "Refused" } as const;

/** A row's detail as one line: "amount 5.00, reason refund_exceeds_payment". */
export const auditDetailText = (detail: Record<string, string>) =>
  Object.entries(detail)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
