CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "duplicate_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "rate_limits_expires_idx" ON "rate_limits" USING btree ("expires_at");--> statement-breakpoint
-- Checkouts that an earlier version let be paid twice: the later payments become duplicates, so the
-- one-paid-attempt index below can be built on existing data.
UPDATE "payment_attempts" AS a SET "duplicate_at" = now() WHERE a."status_group" = 'completed' AND EXISTS (SELECT 1 FROM "payment_attempts" AS b WHERE b."checkout_id" = a."checkout_id" AND b."status_group" = 'completed' AND (coalesce(b."completed_at", b."updated_at"), b."id") < (coalesce(a."completed_at", a."updated_at"), a."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_one_paid_idx" ON "payment_attempts" USING btree ("checkout_id") WHERE "payment_attempts"."status_group" = 'completed' and "payment_attempts"."duplicate_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_idempotency_idx" ON "refunds" USING btree ("checkout_id","idempotency_key");