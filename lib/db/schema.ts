import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { CheckoutStatus, LineItem, PaymentMethod, StatusGroup, StatusSource } from "../checkout/types";

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
    // The merchant's own id for a signed-in customer: the first half of recognising a returning
    // payer for a saved bank account (ADR 11). Never shown to the payer's browser.
    customerId: text("customer_id"),
    // The merchant's own keys and values, returned with the checkout and in its notifications.
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    // What the order is made of (name, quantity, unit amount), adding up to `amount`.
    lineItems: jsonb("line_items").$type<LineItem[]>().notNull().default([]),
    // The payment link a payer made this checkout from (lib/payment-links), if any.
    paymentLinkId: text("payment_link_id").references((): AnyPgColumn => paymentLinks.id),
    creditorName: text("creditor_name").notNull(),
    creditorIban: text("creditor_iban").notNull(),
    status: text("status").$type<CheckoutStatus>().notNull().default("open"),
    // Raised by every write to the checkout or its attempts: a write that read the checkout
    // applies only if no other came in between (optimistic concurrency, ADR 19).
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("checkouts_reference_idx").on(t.reference),
    index("checkouts_created_idx").on(t.createdAt),
    // The merchant's "what changed on a day" (GET /api/checkouts?updatedFrom=).
    index("checkouts_updated_idx").on(t.updatedAt),
    index("checkouts_payment_link_idx").on(t.paymentLinkId, t.createdAt),
  ],
);

/**
 * A page a payer opens to pay without the merchant's backend (lib/payment-links, ADR 32): each
 * payment on it is an ordinary checkout, made when the payer submits.
 */
export const paymentLinks = pgTable("payment_links", {
  id: text("id").primaryKey(),
  // What the public address carries: /pay/{slug}.
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  description: text("description"),
  currency: text("currency").notNull(),
  // A fixed amount, or null when the payer chooses one between min and max.
  amount: numeric("amount"),
  minAmount: numeric("min_amount"),
  maxAmount: numeric("max_amount"),
  suggestedAmount: numeric("suggested_amount"),
  referencePrefix: text("reference_prefix").notNull(),
  // The one field the payer fills in (an invoice number, say), stored in the checkout's metadata under its label.
  payerFieldLabel: text("payer_field_label"),
  payerFieldRequired: boolean("payer_field_required").notNull().default(false),
  returnUrl: text("return_url"),
  notifyUrl: text("notify_url"),
  endsAt: timestamp("ends_at", { withTimezone: true }),
  // At most this many paid checkouts, ever.
  maxPayments: integer("max_payments"),
  deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
  // "staff:<id>" or "api_key:<id>".
  createdBy: text("created_by").notNull(),
  createdAt: createdAt(),
  // A merchant's Idempotency-Key and its request's hash: a retried create is this link again.
  idempotencyKey: text("idempotency_key").unique(),
  requestHash: text("request_hash"),
});

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
    // Set when the payer came back without authorising and chose to pay another way. The provider
    // payment may still complete later (a bank tab left open), so it is not marked failed.
    abandonedAt: timestamp("abandoned_at", { withTimezone: true }),
    // When we last asked the provider, and when to ask next (reconciliation backs off).
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    nextCheckAt: timestamp("next_check_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    // Set when this attempt completed while another attempt had already paid the checkout: money
    // the payer sent twice, reported to the merchant and refundable in one click (ADR 13).
    duplicateAt: timestamp("duplicate_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payment_attempts_next_check_idx").on(t.nextCheckAt),
    // The database itself keeps one paying attempt per checkout; any other completed one is a duplicate.
    uniqueIndex("payment_attempts_one_paid_idx")
      .on(t.checkoutId)
      .where(sql`${t.statusGroup} = 'completed' and ${t.duplicateAt} is null`),
    uniqueIndex("payment_attempts_key_idx").on(t.checkoutId, t.attemptKey),
    // The database itself refuses a second attempt in flight for one checkout.
    uniqueIndex("payment_attempts_one_in_flight_idx")
      .on(t.checkoutId)
      .where(
        sql`${t.abandonedAt} is null and (${t.statusGroup} is null or ${t.statusGroup} in ('started', 'pending'))`,
      ),
  ],
);

export type { StatusSource };

/** Every applied status change, with who caused it: the audit trail of a checkout. */
export const statusEvents = pgTable(
  "status_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    checkoutId: text("checkout_id")
      .notNull()
      .references(() => checkouts.id),
    attemptId: text("attempt_id").references(() => paymentAttempts.id),
    fromStatus: text("from_status").$type<CheckoutStatus>(),
    toStatus: text("to_status").$type<CheckoutStatus>().notNull(),
    providerStatus: text("provider_status"),
    source: text("source").$type<StatusSource>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("status_events_checkout_idx").on(t.checkoutId)],
);

/** Every webhook received signed with our secret, kept for audit (forged ones are refused unstored). */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    type: text("type"),
    providerPaymentId: text("provider_payment_id"),
    signatureValid: boolean("signature_valid").notNull(),
    outcome: text("outcome").notNull(),
    rawBody: text("raw_body").notNull(),
  },
  // Bodies retention has yet to empty (lib/retention): each batch an index scan.
  (t) => [
    index("webhook_events_prunable_idx")
      .on(t.receivedAt)
      .where(sql`${t.rawBody} <> ''`),
  ],
);

/** A merchant's Idempotency-Key on checkout creation, with a hash of the request it came with. */
export const idempotencyKeys = pgTable("idempotency_keys", {
  key: text("key").primaryKey(),
  requestHash: text("request_hash").notNull(),
  checkoutId: text("checkout_id")
    .notNull()
    .references(() => checkouts.id),
  createdAt: createdAt(),
});

export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    checkoutId: text("checkout_id")
      .notNull()
      .references(() => checkouts.id),
    attemptId: text("attempt_id")
      .notNull()
      .references(() => paymentAttempts.id),
    // The provider's integer refund id; null until it answered.
    providerRefundId: integer("provider_refund_id"),
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    // null: written, provider not answered; then the provider's status group.
    statusGroup: text("status_group").$type<StatusGroup>(),
    failureReason: text("failure_reason"),
    reason: text("reason"),
    createdBy: text("created_by").notNull(),
    // The caller's Idempotency-Key (merchant API) or the form's key (back office), with a hash of
    // what was asked: a retried or double-clicked refund returns the first one.
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    // Reconciliation of refunds whose outcome we do not know yet, from the provider's refund list.
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    nextCheckAt: timestamp("next_check_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("refunds_checkout_idx").on(t.checkoutId),
    uniqueIndex("refunds_provider_idx").on(t.attemptId, t.providerRefundId),
    uniqueIndex("refunds_idempotency_idx").on(t.checkoutId, t.idempotencyKey),
  ],
);

/**
 * The outbox of notifications to the merchant's notifyUrl. Written in the same transaction as the
 * status change it reports, delivered by the worker with retries, so a crash loses none.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    checkoutId: text("checkout_id")
      .notNull()
      .references(() => checkouts.id),
    event: text("event").notNull(),
    url: text("url").notNull(),
    payload: text("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    // The lease of the instance delivering it now: claimed with SKIP LOCKED, taken over by another
    // instance once it passes (the deliverer died).
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    createdAt: createdAt(),
  },
  // Pending rows only: delivered ones pile up for ever and must not slow the outbox's claim.
  (t) => [
    index("notifications_pending_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null`),
    index("notifications_checkout_idx").on(t.checkoutId),
    // Delivered rows whose body retention has yet to empty (lib/retention): each batch an index scan.
    index("notifications_prunable_idx")
      .on(t.deliveredAt)
      .where(sql`${t.deliveredAt} is not null and ${t.payload} <> ''`),
  ],
);

/**
 * Rate-limit counters shared by every instance: one fixed window per key, counted with one
 * upsert (lib/http/rate-limit.ts).
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_limits_expires_idx").on(t.expiresAt)],
);

/** A staff role, lowest first: each may do what the ones before it may (lib/staff/roles.ts). */
export type StaffRole = "viewer" | "support" | "finance" | "admin";

/**
 * The merchant's staff, one row per person (ADR 27). `passwordHash` is argon2id, absent until the
 * person sets one from an invitation. A disabled person keeps the row (the audit trail names them).
 * `demo` marks the sandbox's seeded admin, whose password is printed in the README: it signs in
 * only in sandbox mode.
 */
export const staff = pgTable(
  "staff",
  {
    id: text("id").primaryKey(),
    // Stored lowercased: one person, one address, however it is typed.
    email: text("email").notNull(),
    role: text("role").$type<StaffRole>().notNull(),
    passwordHash: text("password_hash"),
    demo: boolean("demo").notNull().default(false),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    // Two-step sign-in (lib/staff/two-step.ts): the TOTP secret sealed with TOKEN_ENCRYPTION_KEYS,
    // set when enrolment starts and in force once `totpEnabledAt` is; the last step used (no replay).
    totpSecret: text("totp_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("staff_email_idx").on(t.email)],
);

/**
 * One-time links to set a password (an invitation, or an admin's reset): the link holds a random
 * token, this table its sha256. Used once, within `expiresAt`.
 */
export const staffInvitations = pgTable(
  "staff_invitations",
  {
    tokenHash: text("token_hash").primaryKey(),
    staffId: text("staff_id")
      .notNull()
      .references(() => staff.id),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("staff_invitations_staff_idx").on(t.staffId)],
);

/**
 * Back-office sessions, server side: the cookie holds a random token, this table its sha256, so a
 * stolen database row cannot be replayed as a cookie and ending a session is deleting its row.
 * Disabling a person, changing their role or their password deletes their rows.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    staffId: text("staff_id")
      .notNull()
      .references(() => staff.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // When the person last proved who they are (their password): what "recent sign-in" reads.
    authenticatedAt: timestamp("authenticated_at", { withTimezone: true }).notNull().defaultNow(),
    // "full" opens the back office; "second_factor" waits for a code, "enrol" for two-step sign-in
    // to be set up (a role that requires it): each opens only its own page.
    stage: text("stage").$type<SessionStage>().notNull().default("full"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("staff_sessions_expires_idx").on(t.expiresAt), index("staff_sessions_staff_idx").on(t.staffId)],
);

export type SessionStage = "full" | "second_factor" | "enrol";

/**
 * Secrets that sign our notifications to the merchant, made in the back office (lib/api-keys):
 * sealed with TOKEN_ENCRYPTION_KEYS, because we must use them, not only check them. Each one not
 * ended signs every notification, so during a roll's overlap the merchant gets a signature by each.
 */
export const notifySecrets = pgTable("notify_secrets", {
  id: text("id").primaryKey(),
  sealed: text("sealed").notNull(),
  prefix: text("prefix").notNull(),
  createdBy: text("created_by"),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }),
});

export type RefundRequestStatus = "requested" | "approved" | "rejected";

/**
 * Four eyes on large refunds (lib/refund-approvals): a staff refund that takes the checkout's refunds
 * above REFUND_APPROVAL_ABOVE is recorded here and goes to the provider only when someone else
 * approves it. One not decided in 7 days has lapsed (read from `requestedAt`; nothing needs to run
 * for it).
 */
export const refundRequests = pgTable(
  "refund_requests",
  {
    id: text("id").primaryKey(),
    checkoutId: text("checkout_id")
      .notNull()
      .references(() => checkouts.id),
    attemptId: text("attempt_id"),
    amount: numeric("amount").notNull(),
    reason: text("reason"),
    status: text("status").$type<RefundRequestStatus>().notNull().default("requested"),
    requestedBy: text("requested_by").notNull(),
    requestedByEmail: text("requested_by_email").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    decidedBy: text("decided_by"),
    decidedByEmail: text("decided_by_email"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    refundId: text("refund_id"),
  },
  (t) => [
    index("refund_requests_status_idx").on(t.status, t.requestedAt),
    index("refund_requests_checkout_idx").on(t.checkoutId),
  ],
);

/**
 * The merchant's API keys, made in the back office (lib/api-keys): shown once, stored as sha256
 * (they are random), with a visible prefix to tell them apart. A rolled key keeps working until
 * `expiresAt`; a revoked one stops at once.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    // The key that replaced this one when it was rolled.
    replacedBy: text("replaced_by"),
  },
  (t) => [uniqueIndex("api_keys_secret_idx").on(t.secretHash)],
);

/** One-time recovery codes of two-step sign-in, ten per person, stored as sha256 (they are random). */
export const staffRecoveryCodes = pgTable(
  "staff_recovery_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    staffId: text("staff_id")
      .notNull()
      .references(() => staff.id),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("staff_recovery_codes_staff_idx").on(t.staffId)],
);

/**
 * Passkeys (WebAuthn) of staff: a second step, or sign-in without a password (ADR 29). The public
 * key only (COSE, base64url); the private key never leaves the person's device. `counter` is the
 * authenticator's signature count, kept to spot a cloned key.
 */
export const staffPasskeys = pgTable(
  "staff_passkeys",
  {
    // The credential id the authenticator gave, base64url.
    id: text("id").primaryKey(),
    staffId: text("staff_id")
      .notNull()
      .references(() => staff.id),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    // How the browser may reach it again (usb, internal, hybrid...), comma-separated.
    transports: text("transports").notNull().default(""),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("staff_passkeys_staff_idx").on(t.staffId)],
);

/**
 * WebAuthn challenges given out and not yet answered, in the database so that any instance can
 * check the answer. Answering deletes the row: each challenge works once, for its purpose, for
 * two minutes.
 */
export const staffPasskeyChallenges = pgTable(
  "staff_passkey_challenges",
  {
    challenge: text("challenge").primaryKey(),
    purpose: text("purpose").$type<PasskeyPurpose>().notNull(),
    // Whose it is, except for signing in without a password (nobody is known yet).
    staffId: text("staff_id"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("staff_passkey_challenges_expires_idx").on(t.expiresAt)],
);

export type PasskeyPurpose = "register" | "sign_in" | "second_factor" | "confirm";

export type AuditOutcome = "succeeded" | "failed" | "refused";

/**
 * Who did what, append-only (ADR 27): the app only inserts, and a trigger refuses UPDATE, DELETE
 * and TRUNCATE (migration 0009). `actorLabel` is the person's address or the key's name as it was
 * then, so a row reads the same after the person is renamed or the key revoked.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    actorKind: text("actor_kind").$type<"staff" | "api_key" | "anonymous" | "system">().notNull(),
    actorId: text("actor_id"),
    actorLabel: text("actor_label"),
    action: text("action").notNull(),
    targetKind: text("target_kind"),
    targetId: text("target_id"),
    outcome: text("outcome").$type<AuditOutcome>().notNull(),
    // Why a failure or refusal happened, in a word ("wrong_password"), or what changed.
    detail: jsonb("detail").$type<Record<string, string>>(),
    clientAddress: text("client_address"),
  },
  (t) => [
    index("audit_events_time_idx").on(t.occurredAt),
    index("audit_events_actor_idx").on(t.actorId, t.occurredAt),
    index("audit_events_target_idx").on(t.targetId, t.occurredAt),
  ],
);

export type AccountLinkStatus =
  "pending" | "exchanging" | "active" | "failed" | "expired" | "revoked" | "forgotten" | "replaced";

/**
 * A payer's saved bank account (provider account linking, ADR 11). Usable only by the merchant's
 * customer who made it, in the browser that holds the handle whose hash is stored here. Tokens are
 * sealed with the token vault; they are wiped when the link ends.
 */
export const accountLinks = pgTable(
  "account_links",
  {
    // Also the provider's Request-Id, echoed back as requestId on the return.
    id: text("id").primaryKey(),
    customerId: text("customer_id").notNull(),
    handleHash: text("handle_hash").notNull(),
    // The checkout the payer was paying when linking: the payment continues there after the return.
    checkoutId: text("checkout_id")
      .notNull()
      .references(() => checkouts.id),
    status: text("status").$type<AccountLinkStatus>().notNull().default("pending"),
    bankId: text("bank_id").notNull(),
    // The provider's id of the linking (authId), for support and the provider's logs.
    providerLinkId: text("provider_link_id"),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    accessToken: text("access_token"),
    accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }),
    refreshToken: text("refresh_token"),
    // 90 days from linking (the provider's one-click period), whatever refreshes happen.
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    failureReason: text("failure_reason"),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One saved account per customer and browser.
    uniqueIndex("account_links_one_active_idx")
      .on(t.customerId, t.handleHash)
      .where(sql`${t.status} = 'active'`),
    // The checkout page reads a checkout's latest linking to say whether the account was saved
    // (savingOutcome).
    index("account_links_checkout_idx").on(t.checkoutId, t.createdAt),
  ],
);

/** Rows as read, for the code that takes them apart. */
export type CheckoutRow = typeof checkouts.$inferSelect;
export type AttemptRow = typeof paymentAttempts.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type LinkRow = typeof accountLinks.$inferSelect;
