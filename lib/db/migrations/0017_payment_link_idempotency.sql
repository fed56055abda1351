ALTER TABLE "payment_links" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "payment_links" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_idempotency_key_unique" UNIQUE("idempotency_key");