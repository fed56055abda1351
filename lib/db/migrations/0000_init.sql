CREATE TABLE "checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"reference" text NOT NULL,
	"return_url" text NOT NULL,
	"notify_url" text,
	"locale" text,
	"country" text,
	"email" text,
	"creditor_name" text NOT NULL,
	"creditor_iban" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"checkout_id" text NOT NULL,
	"attempt_key" text NOT NULL,
	"method" text NOT NULL,
	"bank_id" text,
	"provider_payment_id" text,
	"status_group" text,
	"provider_status" text,
	"provider_status_kind" text,
	"error_codes" jsonb,
	"failure_reason" text,
	"confirm_link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_attempts_provider_payment_id_unique" UNIQUE("provider_payment_id")
);
--> statement-breakpoint
CREATE TABLE "status_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"checkout_id" text NOT NULL,
	"attempt_id" text,
	"from_status" text,
	"to_status" text NOT NULL,
	"provider_status" text,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"type" text,
	"provider_payment_id" text,
	"signature_valid" boolean NOT NULL,
	"outcome" text NOT NULL,
	"raw_body" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_events" ADD CONSTRAINT "status_events_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_events" ADD CONSTRAINT "status_events_attempt_id_payment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."payment_attempts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkouts_reference_idx" ON "checkouts" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "checkouts_created_idx" ON "checkouts" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_key_idx" ON "payment_attempts" USING btree ("checkout_id","attempt_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_one_in_flight_idx" ON "payment_attempts" USING btree ("checkout_id") WHERE "payment_attempts"."status_group" is null or "payment_attempts"."status_group" in ('started', 'pending');--> statement-breakpoint
CREATE INDEX "status_events_checkout_idx" ON "status_events" USING btree ("checkout_id");