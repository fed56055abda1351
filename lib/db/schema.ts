import { sql } from "drizzle-orm";
import { bigserial, boolean, index, jsonb, numeric, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { CheckoutStatus, PaymentMethod, StatusGroup } from "../checkout/types";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const checkouts = pgTable(
  "checkouts",
  {
    id: text("id").primaryKey(),
    // Unscaled numeric keeps the merchant's decimal string exactly ("12.50" comes back "12.50").
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    description: text("description").notNull(),
    reference: text("reference").notNull(),
    returnUrl: text("return_url").notNull(),
    notifyUrl: text("notify_url"),
    locale: text("locale"),
    country: text("country"),
    email: text("email"),
    creditorName: text("creditor_name").notNull(),
    creditorIban: text("creditor_iban").notNull(),
    status: text("status").$type<CheckoutStatus>().notNull().default("open"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("checkouts_reference_idx").on(t.reference), index("checkouts_created_idx").on(t.createdAt)],
);

export const paymentAttempts = pgTable(
  "payment_attempts",
  {
    id: text("id").primaryKey(),
    checkoutId: text("checkout_id")
      .notNull()
      .references(() => checkouts.id),
    attemptKey: text("attempt_key").notNull(),
    method: text("method").$type<PaymentMethod>().notNull(),
    bankId: text("bank_id"),
    providerPaymentId: text("provider_payment_id").unique(),
    // null: written, provider not answered yet.
    statusGroup: text("status_group").$type<StatusGroup>(),
    providerStatus: text("provider_status"),
    providerStatusKind: text("provider_status_kind"),
    errorCodes: jsonb("error_codes").$type<number[]>(),
    failureReason: text("failure_reason"),
    confirmLink: text("confirm_link"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payment_attempts_key_idx").on(t.checkoutId, t.attemptKey),
    // The database itself refuses a second attempt in flight for one checkout.
    uniqueIndex("payment_attempts_one_in_flight_idx")
      .on(t.checkoutId)
      .where(sql`${t.statusGroup} is null or ${t.statusGroup} in ('started', 'pending')`),
  ],
);

export type StatusSource = "initiation" | "landing" | "webhook" | "reconciliation" | "system";

/** Every applied status change, with who caused it: the audit trail of a checkout. */
export const statusEvents = pgTable(
  "status_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    checkoutId: text("checkout_id")
      .notNull()
      .references(() => checkouts.id),
    attemptId: text("attempt_id").references(() => paymentAttempts.id),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    providerStatus: text("provider_status"),
    source: text("source").$type<StatusSource>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("status_events_checkout_idx").on(t.checkoutId)],
);

/** Every webhook received, valid or not, kept for audit. */
export const webhookEvents = pgTable("webhook_events", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  type: text("type"),
  providerPaymentId: text("provider_payment_id"),
  signatureValid: boolean("signature_valid").notNull(),
  outcome: text("outcome").notNull(),
  rawBody: text("raw_body").notNull(),
});
