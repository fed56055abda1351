import type { StaffRole } from "../db/schema";

export type { StaffRole };

/** Lowest first: each role may do everything the roles before it may. */
export const ROLES: readonly StaffRole[] = ["viewer", "support", "finance", "admin"];

/**
 * The one table of who may do what in the back office (the way lib/errors.ts is the one table of
 * errors). Every page, server action and staff API route names its action here; an action not in
 * the table is refused (deny by default).
 */
export const STAFF_ACTIONS = {
  "checkouts.view": "viewer",
  "checkouts.cancel": "support",
  "notifications.resend": "support",
  "payment_links.view": "viewer",
  "payment_links.manage": "support",
  "refunds.create": "finance",
  "staff.manage": "admin",
  "api_keys.manage": "admin",
  "audit.view": "admin",
} as const satisfies Record<string, StaffRole>;

export type StaffAction = keyof typeof STAFF_ACTIONS;

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function allows(role: StaffRole, action: string): boolean {
  const needed = (STAFF_ACTIONS as Record<string, StaffRole | undefined>)[action];
  if (!needed || !isStaffRole(role)) return false;
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export const ROLE_LABELS: Record<StaffRole, { name: string; may: string }> = {
  viewer: { name: "Viewer", may: "sees checkouts, their payments, payment links and the chart" },
  support: { name: "Support", may: "also cancels checkouts, sends notifications again and makes payment links" },
  finance: { name: "Finance", may: "also makes refunds" },
  admin: { name: "Admin", may: "also manages staff and API keys and reads the activity log" },
};
